// Pacal: two pyramids of ten fields (rows 1-2-3-4), the hands, the offer and the card to place.

import { clickable, h, s, seatName } from "/static/common.js";

const W = 56;
const H = 78;
const GAP = 8;
const PYRAMID_W = 4 * (W + GAP);
const PYRAMID_H = 4 * (H + GAP);

function fieldLabel(index, cards) {
  const name = `F${index + 1}`;
  if (cards.length === 0) return `${name}: empty`;
  if (cards.length === 1) return `${name}: ${cards[0]}, open`;
  return `${name}: ${cards[1]} covering ${cards[0]}, closed`;
}

function cardShape(x, y, value, extra = {}) {
  const group = s("g", { class: `card ${extra.class || ""}`, transform: `translate(${x} ${y})` });
  group.append(
    s("rect", { class: "card-face", width: W, height: H, rx: 6 }),
    extra.corner
      ? s("text", { class: "card-value", x: 6, y: 28 }, String(value))
      : s("text", { class: "card-value", x: W / 2, y: H / 2 + 9, "text-anchor": "middle" }, String(value)),
  );
  return group;
}

function fieldShape(ctx, owner, index, cards, x, y) {
  const mine = ctx.seat === owner || ctx.view.game === "pacal-solo";
  const legalAction = `place F${index + 1}`;
  const legal = mine && ctx.legal.includes(legalAction);
  const state = cards.length === 0 ? "empty" : cards.length === 1 ? "open" : "closed";
  const group = s("g", {
    class: `field ${state}${legal ? " legal" : ""}`,
    transform: `translate(${x} ${y})`,
    "data-field": index + 1,
    "data-owner": owner,
    "data-state": state,
  });
  group.append(s("title", {}, fieldLabel(index, cards)));
  if (state === "empty") {
    group.append(
      s("rect", { class: "field-slot", width: W, height: H, rx: 6 }),
      s("text", { class: "field-name", x: W / 2, y: H / 2 + 5, "text-anchor": "middle" }, `F${index + 1}`),
    );
  } else {
    if (state === "closed") {
      // The covered card peeks out below and to the right: the field is closed for good.
      group.append(s("rect", { class: "card-under", x: 4, y: 5, width: W, height: H, rx: 6 }));
    }
    group.append(s("rect", { class: "card-face", width: W, height: H, rx: 6 }));
    if (state === "closed") {
      group.append(s("rect", { class: "closed-mark", x: 3, y: 3, width: W - 6, height: H - 6, rx: 4 }));
      group.append(
        s("text", { class: "covered-value", x: W / 2, y: H - 9, "text-anchor": "middle" }, `on ${cards[0]}`),
      );
    }
    group.append(
      s("text", { class: "card-value", x: W / 2, y: H / 2 + 6, "text-anchor": "middle" }, String(cards[cards.length - 1])),
      s("text", { class: "field-name small", x: 5, y: 13 }, `F${index + 1}`),
    );
  }
  if (legal) {
    group.append(
      s("rect", { class: "legal-ring", x: -4, y: -4, width: W + 8, height: H + 8, rx: 9 }),
      s("circle", { class: "legal-badge", cx: W - 2, cy: 2, r: 9 }),
      s("path", { class: "legal-plus", d: `M${W - 7} 2 H${W + 3} M${W - 2} -3 V7` }),
    );
    group.dataset.action = legalAction;
    group.dataset.key = `field-${owner}-${index + 1}`;
    const card = ctx.view.card_to_place ?? ctx.view.card;
    clickable(group, `place ${card} on F${index + 1}${cards.length ? ` (covering ${cards[cards.length - 1]})` : ""}`,
      () => ctx.send(legalAction));
  }
  return group;
}

function pyramidShape(ctx, owner, fields, layout, x, y, title) {
  const group = s("g", { class: "pyramid", "data-owner": owner });
  group.append(s("text", { class: "pyramid-title", x: x + PYRAMID_W / 2, y: y - 10, "text-anchor": "middle" }, title));
  fields.forEach((cards, index) => {
    const [row, column] = layout[index];
    const fx = x + ((3 - row) * (W + GAP)) / 2 + column * (W + GAP);
    const fy = y + row * (H + GAP);
    group.append(fieldShape(ctx, owner, index, cards, fx, fy));
  });
  return group;
}

function handShape(ctx, hand, x, y, width) {
  const group = s("g", { class: "hand" });
  const selected = ctx.ui.pacalSelected || [];
  const offering = ctx.legal.some((action) => action.startsWith("offer "));
  const perRow = Math.max(1, Math.min(hand.length, Math.floor((width - W) / (W * 0.75)) + 1));
  hand.forEach((value, index) => {
    const row = Math.floor(index / perRow);
    const inRow = Math.min(perRow, hand.length - row * perRow);
    const step = inRow > 1 ? Math.min(W + 6, (width - 20 - W) / (inRow - 1)) : 0;
    const start = x + (width - (step * (inRow - 1) + W)) / 2;
    const chosen = selected.includes(value);
    const card = cardShape(start + (index % perRow) * step, y + row * (H * 0.7) - (chosen ? 14 : 0), value, {
      class: `in-hand${chosen ? " selected" : ""}${offering ? " choosable" : ""}`,
      corner: true,
    });
    card.dataset.card = value;
    card.dataset.key = `hand-${value}`;
    if (chosen) {
      card.append(s("path", { class: "tick", d: "M8 10 l5 5 l9 -10" }));
    }
    if (offering) {
      clickable(card, `${chosen ? "unselect" : "select"} card ${value} to offer`, () => {
        const now = ctx.ui.pacalSelected || [];
        if (now.includes(value)) ctx.ui.pacalSelected = now.filter((card) => card !== value);
        else ctx.ui.pacalSelected = [...now, value].slice(-2);
        ctx.rerender();
      });
    }
    group.append(card);
  });
  return group;
}

function backs(count, x, y) {
  const group = s("g", { class: "backs" });
  const shown = Math.min(count, 8);
  for (let index = 0; index < shown; index += 1) {
    group.append(s("rect", { class: "card-back", x: x + index * 6, y, width: W * 0.6, height: H * 0.6, rx: 4 }));
  }
  group.append(s("text", { class: "label", x: x + shown * 6 + W * 0.6 + 6, y: y + H * 0.35 }, `${count} in hand`));
  return group;
}

function phaseText(ctx) {
  const view = ctx.view;
  const name = (seat) => (seat === ctx.seat ? "You" : seatName(ctx.seats, seat));
  if (view.phase === "over") return "The match is over.";
  if (view.phase === "offer") return `${name(view.active_player)} ${view.active_player === ctx.seat ? "offer" : "offers"} two cards.`;
  if (view.phase === "pick") return `${name(view.current_player)} ${view.current_player === ctx.seat ? "pick" : "picks"} one of the offer.`;
  if (view.phase === "place") return `${name(view.current_player)} ${view.current_player === ctx.seat ? "place" : "places"} a card.`;
  if (view.phase === "last_card") return `Last cards: ${name(view.current_player)} ${view.current_player === ctx.seat ? "place or decline" : "places or declines"}.`;
  return "";
}

function centerShape(ctx, x, y, width) {
  const view = ctx.view;
  const group = s("g", { class: "center" });
  const mid = x + width / 2;
  group.append(s("text", { class: "phase", x: mid, y, "text-anchor": "middle" }, phaseText(ctx)));
  if (view.offer) {
    group.append(s("text", { class: "label", x: mid, y: y + 26, "text-anchor": "middle" }, "Offer"));
    view.offer.forEach((value, index) => {
      const action = `pick ${value}`;
      const legal = ctx.legal.includes(action);
      const picked = view.picked === value;
      const card = cardShape(mid - W - 4 + index * (W + 8), y + 36, value, {
        class: `offer${legal ? " legal" : ""}${picked ? " picked" : ""}`,
      });
      card.dataset.card = value;
      if (picked) card.append(s("text", { class: "label small", x: W / 2, y: H + 14, "text-anchor": "middle" }, "picked"));
      if (legal) {
        card.append(s("rect", { class: "legal-ring", x: -4, y: -4, width: W + 8, height: H + 8, rx: 9 }));
        card.dataset.action = action;
        card.dataset.key = `pick-${value}`;
        clickable(card, `pick ${value}`, () => ctx.send(action));
      }
      group.append(card);
    });
  }
  const toPlace = view.card_to_place;
  if (toPlace !== null && toPlace !== undefined) {
    const top = y + (view.offer ? 150 : 40);
    group.append(s("text", { class: "label", x: mid, y: top, "text-anchor": "middle" }, "Your card to place"));
    const card = cardShape(mid - W / 2, top + 8, toPlace, { class: "to-place" });
    card.dataset.card = toPlace;
    group.append(card);
    if (!view.legal_fields.length && !ctx.finished) {
      group.append(s("text", { class: "label warn", x: mid, y: top + H + 26, "text-anchor": "middle" }, "no legal field"));
    }
  }
  return group;
}

function scoreLine(ctx) {
  const view = ctx.view;
  const parts = [`Round ${view.round}`, `first to ${view.rounds_to_win} round${view.rounds_to_win > 1 ? "s" : ""}`];
  const wins = view.round_wins.map((count, seat) => `${seatName(ctx.seats, seat)} ${count}`).join(" – ");
  parts.push(`round wins: ${wins}`);
  parts.push(`spreads: ${view.spreads.join(" / ")}`);
  parts.push(`turn ${Math.min(view.turns_played + 1, 15)} of 15`);
  if (view.revealed_apex_bases) {
    const bases = view.revealed_apex_bases.map((value, seat) => `${seatName(ctx.seats, seat)} ${value}`);
    parts.push(`apex base cards (who starts): ${bases.join(", ")}`);
  }
  return parts.join(" · ");
}

function controls(ctx) {
  const view = ctx.view;
  const buttons = [];
  if (ctx.legal.some((action) => action.startsWith("offer "))) {
    const chosen = [...(ctx.ui.pacalSelected || [])].sort((a, b) => a - b);
    const action = chosen.length === 2 ? `offer ${chosen[0]} ${chosen[1]}` : null;
    buttons.push(
      h("button", {
        class: "primary", id: "offer-button", "data-key": "offer-button",
        disabled: !action || !ctx.legal.includes(action),
        "data-action": action || undefined,
        onclick: () => {
          if (!action) return;
          ctx.ui.pacalSelected = [];
          ctx.send(action);
        },
      }, action ? `Offer ${chosen[0]} and ${chosen[1]}` : "Choose two cards to offer"),
    );
  }
  if (ctx.legal.includes("decline")) {
    buttons.push(h("button", { "data-action": "decline", "data-key": "decline", onclick: () => ctx.send("decline") }, "Decline the last card"));
  }
  if (view.last_round && view.phase !== "over") {
    const lr = view.last_round;
    buttons.push(h("p", { class: "hint" },
      `Round ${lr.round}: ${lr.winner === null ? "drawn" : `won by ${seatName(ctx.seats, lr.winner)}`} (${lr.reason}).`));
  }
  return h("div", { class: "actions" }, buttons);
}

function renderSolo(box, ctx) {
  const view = ctx.view;
  const width = PYRAMID_W + 220;
  const height = PYRAMID_H + 60;
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "board pacal", role: "group", "aria-label": "your pyramid" });
  svg.append(pyramidShape(ctx, ctx.seat ?? 0, view.pyramid, view.layout, 10, 40, "Your pyramid"));
  const x = PYRAMID_W + 40;
  svg.append(s("text", { class: "label", x, y: 60 }, `Draws: ${view.draws} · pile ${view.pile_size}`));
  if (view.card !== null && view.card !== undefined) {
    svg.append(s("text", { class: "label", x, y: 90 }, view.result === "lost" ? "No field for" : "Card to place"));
    const card = cardShape(x + 40, 100, view.card, { class: "to-place" });
    card.dataset.card = view.card;
    svg.append(card);
  }
  svg.append(s("text", { class: "label", x, y: 220 }, `Spread: ${view.spread}`));
  box.replaceChildren(svg);
}

export function render(box, ctx) {
  const view = ctx.view;
  if (view.game === "pacal-solo") {
    renderSolo(box, ctx);
    return;
  }
  const me = ctx.seat ?? 0;
  const other = 1 - me;
  const narrow = window.innerWidth < 640;
  const centerW = 200;
  const title = (seat) => `${seatName(ctx.seats, seat)}${seat === ctx.seat ? " (you)" : ""} · spread ${view.spreads[seat]}`;
  let svg;
  if (narrow) {
    const width = PYRAMID_W + 40;
    const myY = PYRAMID_H + 380;
    const handY = myY + PYRAMID_H + 20;
    svg = s("svg", { viewBox: `0 0 ${width} ${handY + H * 2.6}`, class: "board pacal narrow" });
    svg.append(pyramidShape(ctx, other, view.pyramids[other], view.layout, 20, 36, title(other)));
    svg.append(backs(view.hand_sizes[other], 20, PYRAMID_H + 40));
    svg.append(centerShape(ctx, 0, PYRAMID_H + 110, width));
    svg.append(pyramidShape(ctx, me, view.pyramids[me], view.layout, 20, myY, title(me)));
    if (view.hand) svg.append(handShape(ctx, view.hand, 0, handY, width));
  } else {
    const width = 2 * PYRAMID_W + centerW + 40;
    const handY = PYRAMID_H + 115;
    svg = s("svg", { viewBox: `0 0 ${width} ${handY + H + 20}`, class: "board pacal" });
    svg.append(pyramidShape(ctx, me, view.pyramids[me], view.layout, 10, 40, title(me)));
    svg.append(centerShape(ctx, PYRAMID_W + 20, 40, centerW));
    svg.append(pyramidShape(ctx, other, view.pyramids[other], view.layout, PYRAMID_W + centerW + 30, 40, title(other)));
    if (view.hand) svg.append(handShape(ctx, view.hand, 0, handY, width));
    else svg.append(s("text", { class: "label", x: 10, y: handY + 30 }, "Hands are hidden from spectators."));
    svg.append(backs(view.hand_sizes[other], PYRAMID_W + centerW + 30, PYRAMID_H + 52));
  }
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", "Pacal table");
  box.replaceChildren(h("p", { class: "score", id: "score" }, scoreLine(ctx)), svg, controls(ctx));
}

export function outcome(view, message) {
  if (!view) return [];
  if (view.game === "pacal-solo") {
    return view.won ? [`Pyramid complete in ${view.score} draws.`] : [`Card ${view.card} had no legal field: the game is lost.`];
  }
  const lines = [];
  if (view.winner === null || view.winner === undefined) lines.push("The match is drawn.");
  else lines.push(`${seatName(message.seats, view.winner)} ${view.winner === message.seat ? "(you) " : ""}wins the match ${view.round_wins[view.winner]}–${view.round_wins[1 - view.winner]}.`);
  if (view.last_round) lines.push(`Last round: ${view.last_round.reason}.`);
  return lines;
}
