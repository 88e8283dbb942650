// Pacal: two pyramids of ten fields (rows 1-2-3-4), the hands, the offer and the card to place.

import { clickable, h, s, seatName, t, tn } from "/static/common.js";
import { keysLine, navItem } from "/static/access.js";

const W = 56;
const H = 78;
const GAP = 8;
const PYRAMID_W = 4 * (W + GAP);
const PYRAMID_H = 4 * (H + GAP);

function fieldLabel(index, cards) {
  const field = index + 1;
  if (cards.length === 0) return t("F{field}: empty", { field });
  if (cards.length === 1) return t("F{field}: {card}, open", { field, card: cards[0] });
  return t("F{field}: {card} covering {covered}, closed", { field, card: cards[1], covered: cards[0] });
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
        s("text", { class: "covered-value", x: W / 2, y: H - 9, "text-anchor": "middle" }, t("on {card}", { card: cards[0] })),
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
    const card = ctx.view.card_to_place ?? ctx.view.card;
    const values = { card, field: index + 1, covered: cards[cards.length - 1] };
    clickable(group, cards.length ? t("Place {card} on F{field}, covering {covered}", values) : t("Place {card} on F{field}", values),
      () => ctx.send(legalAction));
  }
  group.append(s("rect", { class: "focus-ring", x: -5, y: -5, width: W + 10, height: H + 10, rx: 9 }));
  group.dataset.key = `field-${owner}-${index + 1}`;
  navItem(group, group.getAttribute("aria-label") || fieldLabel(index, cards));
  return group;
}

function pyramidShape(ctx, owner, fields, layout, x, y, title) {
  const group = s("g", { class: "pyramid", "data-owner": owner, role: "group", "aria-label": title });
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
  const group = s("g", { class: "hand", role: "group", "aria-label": t("your hand: {cards}", { cards: hand.join(", ") }) });
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
    card.append(s("rect", { class: "focus-ring", x: -4, y: -4, width: W + 8, height: H + 8, rx: 8 }));
    if (offering) {
      clickable(card, chosen ? t("{card}, chosen to offer", { card: value }) : t("{card}, choose to offer", { card: value }), () => {
        const now = ctx.ui.pacalSelected || [];
        if (now.includes(value)) ctx.ui.pacalSelected = now.filter((card) => card !== value);
        else ctx.ui.pacalSelected = [...now, value].slice(-2);
        ctx.rerender();
      });
      card.setAttribute("aria-pressed", String(chosen));
    }
    navItem(card, card.getAttribute("aria-label") || t("{card}, in your hand", { card: value }));
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
  group.append(s("text", { class: "label", x: x + shown * 6 + W * 0.6 + 6, y: y + H * 0.35 }, tn("{count} card in hand", "{count} cards in hand", count)));
  return group;
}

function phaseText(ctx) {
  const view = ctx.view;
  const player = view.phase === "offer" ? view.active_player : view.current_player;
  const mine = player === ctx.seat;
  const name = seatName(ctx.seats, player);
  if (view.phase === "over") return t("The match is over.");
  if (view.phase === "offer") return mine ? t("You offer two cards.") : t("{name} offers two cards.", { name });
  if (view.phase === "pick") return mine ? t("You pick one of the offer.") : t("{name} picks one of the offer.", { name });
  if (view.phase === "place") return mine ? t("You place a card.") : t("{name} places a card.", { name });
  if (view.phase === "last_card") return mine ? t("Last cards: you place or decline.") : t("Last cards: {name} places or declines.", { name });
  return "";
}

function centerShape(ctx, x, y, width) {
  const view = ctx.view;
  const group = s("g", { class: "center" });
  const mid = x + width / 2;
  group.append(s("text", { class: "phase", x: mid, y, "text-anchor": "middle" }, phaseText(ctx)));
  if (view.offer) {
    group.append(s("text", { class: "label", x: mid, y: y + 26, "text-anchor": "middle" }, t("Offer")));
    view.offer.forEach((value, index) => {
      const action = `pick ${value}`;
      const legal = ctx.legal.includes(action);
      const picked = view.picked === value;
      const card = cardShape(mid - W - 4 + index * (W + 8), y + 36, value, {
        class: `offer${legal ? " legal" : ""}${picked ? " picked" : ""}`,
      });
      card.dataset.card = value;
      if (picked) card.append(s("text", { class: "label small", x: W / 2, y: H + 14, "text-anchor": "middle" }, t("picked")));
      card.append(s("rect", { class: "focus-ring", x: -6, y: -6, width: W + 12, height: H + 12, rx: 10 }));
      card.dataset.key = `pick-${value}`;
      if (legal) {
        card.append(s("rect", { class: "legal-ring", x: -4, y: -4, width: W + 8, height: H + 8, rx: 9 }));
        card.dataset.action = action;
        clickable(card, t("Pick {card}", { card: value }), () => ctx.send(action));
      }
      navItem(card, card.getAttribute("aria-label")
        || (picked ? t("offered card {card}, picked", { card: value }) : t("offered card {card}", { card: value })));
      group.append(card);
    });
  }
  const toPlace = view.card_to_place;
  if (toPlace !== null && toPlace !== undefined) {
    const top = y + (view.offer ? 150 : 40);
    group.append(s("text", { class: "label", x: mid, y: top, "text-anchor": "middle" }, t("Your card to place")));
    const card = cardShape(mid - W / 2, top + 8, toPlace, { class: "to-place" });
    card.dataset.card = toPlace;
    card.dataset.key = "to-place";
    card.append(s("rect", { class: "focus-ring", x: -4, y: -4, width: W + 8, height: H + 8, rx: 8 }));
    const stuck = !view.legal_fields.length && !ctx.finished;
    navItem(card, stuck ? t("your card to place: {card}, no legal field", { card: toPlace }) : t("your card to place: {card}", { card: toPlace }));
    group.append(card);
    if (stuck) {
      group.append(s("text", { class: "label warn", x: mid, y: top + H + 26, "text-anchor": "middle" }, t("no legal field")));
    }
  }
  return group;
}

function scoreLine(ctx) {
  const view = ctx.view;
  const parts = [
    t("Round {round}", { round: view.round }),
    tn("first to {count} round", "first to {count} rounds", view.rounds_to_win),
  ];
  const wins = view.round_wins.map((count, seat) => `${seatName(ctx.seats, seat)} ${count}`).join(" – ");
  parts.push(t("round wins: {wins}", { wins }));
  parts.push(t("spreads: {spreads}", { spreads: view.spreads.join(" / ") }));
  parts.push(t("turn {turn} of 15", { turn: Math.min(view.turns_played + 1, 15) }));
  if (view.revealed_apex_bases) {
    const bases = view.revealed_apex_bases.map((value, seat) => `${seatName(ctx.seats, seat)} ${value}`);
    parts.push(t("apex base cards (who starts): {cards}", { cards: bases.join(", ") }));
  }
  return parts.join(" · ");
}

function roundLine(ctx, lr) {
  const values = { round: lr.round, spreads: lr.spreads ? lr.spreads.join(" / ") : "" };
  if (lr.winner === null || lr.winner === undefined) return t("Round {round}: drawn (spreads {spreads}).", values);
  return t("Round {round}: won by {name} (spreads {spreads}).", { ...values, name: seatName(ctx.seats, lr.winner) });
}

/** Why the offer button offers nothing now (null: it offers the two chosen cards). */
function offerWhyNot(chosen, action) {
  if (action) return null;  // any two cards of the hand may be offered
  if (chosen.length === 1) return t("Choose one more card of your hand to offer: {card} is chosen.", { card: chosen[0] });
  return t("Choose two cards of your hand to offer first.");
}

function controls(ctx) {
  const view = ctx.view;
  const buttons = [];
  if (ctx.legal.some((action) => action.startsWith("offer "))) {
    const chosen = [...(ctx.ui.pacalSelected || [])].sort((a, b) => a - b);
    const action = chosen.length === 2 ? `offer ${chosen[0]} ${chosen[1]}` : null;
    // Off until two cards are chosen: dimmed and marked aria-disabled, not disabled, so
    // that it stays in the Tab order and a click, Enter or O says why (it said nothing).
    const why = offerWhyNot(chosen, action);
    buttons.push(
      h("button", {
        class: "primary", id: "offer-button", "data-key": "offer-button", "aria-keyshortcuts": "O",
        ...(why ? { "aria-disabled": "true", title: why, "aria-description": why, "data-off-reason": why } : {}),
        "data-action": action || undefined,
        onclick: (event) => {
          if (why) {
            event.preventDefault();
            ctx.showMessage(why, "info");
            return;
          }
          ctx.ui.pacalSelected = [];
          ctx.send(action);
        },
      }, action ? t("Offer {first} and {second}", { first: chosen[0], second: chosen[1] }) : t("Choose two cards to offer")),
    );
  }
  if (ctx.legal.includes("decline")) {
    buttons.push(h("button", { "data-action": "decline", "data-key": "decline", "aria-keyshortcuts": "D", onclick: () => ctx.send("decline") }, t("Decline the last card")));
  }
  if (view.last_round && view.phase !== "over") {
    buttons.push(h("p", { class: "hint" }, roundLine(ctx, view.last_round)));
  }
  return h("div", { class: "actions" }, buttons);
}

function renderSolo(box, ctx) {
  const view = ctx.view;
  const width = PYRAMID_W + 220;
  const height = PYRAMID_H + 60;
  // Named as the two-player table is: the pyramid inside is "Your pyramid", and two
  // nested groups of one name were read as one name said twice.
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "board pacal", role: "group", "aria-label": t("Pacal table") });
  svg.append(pyramidShape(ctx, ctx.seat ?? 0, view.pyramid, view.layout, 10, 40, t("Your pyramid")));
  const x = PYRAMID_W + 40;
  svg.append(s("text", { class: "label", x, y: 60 }, t("Draws: {draws} · pile {pile}", { draws: view.draws, pile: view.pile_size })));
  if (view.card !== null && view.card !== undefined) {
    const lost = view.result === "lost";
    svg.append(s("text", { class: "label", x, y: 90 }, lost ? t("No field for") : t("Card to place")));
    const card = cardShape(x + 40, 100, view.card, { class: "to-place" });
    card.dataset.card = view.card;
    card.dataset.key = "to-place";
    card.append(s("rect", { class: "focus-ring", x: -4, y: -4, width: W + 8, height: H + 8, rx: 8 }));
    navItem(card, lost ? t("no field for {card}", { card: view.card }) : t("your card to place: {card}", { card: view.card }));
    svg.append(card);
  }
  svg.append(s("text", { class: "label", x, y: 220 }, t("Spread: {spread}", { spread: view.spread })));
  box.replaceChildren(svg, ctx.replay || ctx.finished ? "" : keysLine([]));
}

export function render(box, ctx) {
  const view = ctx.view;
  if (view.game === "pacal-solo") {
    renderSolo(box, ctx);
    return;
  }
  // Cards chosen for an offer that another tab of this seat (or the clock's bot) made
  // instead: only cards still in the hand stay chosen, and none once no offer is due.
  if (ctx.ui.pacalSelected && ctx.ui.pacalSelected.length) {
    const offering = ctx.legal.some((action) => action.startsWith("offer "));
    ctx.ui.pacalSelected = offering && view.hand ? ctx.ui.pacalSelected.filter((card) => view.hand.includes(card)) : [];
  }
  const me = ctx.seat ?? 0;
  const other = 1 - me;
  const narrow = window.innerWidth < 640;
  const centerW = 200;
  const title = (seat) => {
    const name = seatName(ctx.seats, seat);
    const values = { name: seat === ctx.seat && !ctx.replay ? t("{name} (you)", { name }) : name, spread: view.spreads[seat] };
    return t("{name} · spread {spread}", values);
  };
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
    else svg.append(s("text", { class: "label", x: 10, y: handY + 30 }, t("Hands are hidden from spectators.")));
    svg.append(backs(view.hand_sizes[other], PYRAMID_W + centerW + 30, PYRAMID_H + 52));
  }
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", t("Pacal table"));
  const keys = ctx.replay || ctx.finished ? "" : keysLine([["O", t("Offer the two chosen cards")], ["D", t("Decline the last card")]]);
  box.replaceChildren(h("p", { class: "score", id: "score" }, scoreLine(ctx)), svg, controls(ctx), keys);
}

/** O offers the two chosen cards, D declines the last card; at any other time the key
 * says why it does nothing now (it said nothing at all). */
export function onKey(key, ctx) {
  if ((key !== "o" && key !== "d") || ctx.finished || ctx.replay) return false;
  if (ctx.view.game === "pacal-solo") return false;  // no offers, no last card
  if (ctx.seat === null || ctx.seat === undefined) return false;  // a spectator plays nothing
  // A tutorial's step to read waits for Next, not for the player's move.
  const why = !ctx.yourTurn && ctx.notYourTurn ? ctx.notYourTurn : null;
  if (key === "o") {
    // The button offers the two chosen cards, or says why it cannot yet.
    const button = ctx.yourTurn ? document.getElementById("offer-button") : null;
    if (button) {
      button.click();
      return true;
    }
    ctx.showMessage(why || t("You can offer only on your turn, when it is time to offer."), "info");
    return true;
  }
  if (ctx.yourTurn && ctx.legal.includes("decline")) {
    ctx.send("decline");
    return true;
  }
  ctx.showMessage(why || t("You can decline only your last card, on your turn."), "info");
  return true;
}

/**
 * Why Enter on a field places nothing (the field just filled, a field the card does not
 * fit), in the rules' words: the same reasons the game gives for a refused placement.
 */
export function whyNot(node, ctx) {
  if (!node.dataset.field) return null;
  const view = ctx.view;
  const solo = view.game === "pacal-solo";
  const owner = Number(node.dataset.owner);
  if (!solo && owner !== ctx.seat) {
    return t("That is {name}'s pyramid: your cards go in your own.", { name: seatName(ctx.seats, owner) });
  }
  const card = solo ? view.card : view.card_to_place;
  if (card === null || card === undefined) {
    return solo ? null : t("There is no card to place now: offer two of your hand cards, or pick an offered card.");
  }
  const fields = solo ? view.pyramid : view.pyramids[owner];
  const index = Number(node.dataset.field) - 1;
  const field = `F${index + 1}`;
  const cards = fields[index];
  if (cards.length > 1) {
    return t("{field} is closed: {top} already covers {under} and a field takes at most two cards",
      { field, top: cards[1], under: cards[0] });
  }
  const top = (at) => (fields[at].length ? fields[at][fields[at].length - 1] : null);
  let high = null;
  for (let at = index - 1; at >= 0 && high === null; at -= 1) high = top(at);
  let low = null;
  for (let at = index + 1; at < fields.length && low === null; at += 1) low = top(at);
  const need = low !== null && high !== null ? t("a value between {low} and {high}", { low, high })
    : high !== null ? t("a value below {high}", { high })
      : low !== null ? t("a value above {low}", { low }) : null;
  return need ? t("card {card} cannot go on {field}: it needs {need}", { card, field, need }) : null;
}

/** Escape: put back the cards chosen to offer. */
export function cancel(ctx) {
  if (!(ctx.ui.pacalSelected || []).length) return false;
  ctx.ui.pacalSelected = [];
  return true;
}

/** A move in words, for the last-move line and the live region ("offers 7 and 9"). */
export function describeMove(action, view, message) {
  return moveWords(action, view, message, false);
}

/** The reader's own move in words, as the move log tells it: "You offer 7 and 9". */
export function describeOwnMove(action, view, message) {
  return moveWords(action, view, message, true);
}

function moveWords(action, view, message, you) {
  const [verb, ...rest] = action.split(" ");
  if (verb === "offer" && rest.length === 2) {
    const values = { first: rest[0], second: rest[1] };
    return you ? t("You offer {first} and {second}", values) : t("offers {first} and {second}", values);
  }
  if (verb === "pick" && rest.length === 1) return you ? t("You pick {card}", { card: rest[0] }) : t("picks {card}", { card: rest[0] });
  if (verb === "decline") return you ? t("You decline the last card") : t("declines the last card");
  if (verb === "place" && rest.length === 1) {
    const field = Number(rest[0].slice(1));
    const seat = message && message.last_move ? message.last_move.seat : 0;
    const pyramid = view && (view.pyramids ? view.pyramids[seat] : view.pyramid);
    const cards = pyramid && pyramid[field - 1];
    if (cards && cards.length) {
      const values = { card: cards[cards.length - 1], field };
      return you ? t("You place {card} on F{field}", values) : t("places {card} on F{field}", values);
    }
    return you ? t("You place a card on F{field}", { field }) : t("places a card on F{field}", { field });
  }
  return null;
}

/** The line that tells a round's end, when the round of `view.last_round` ended since
 * `before` (the live region says it: the board shows it as a hint). The match's end
 * says its last round in `outcome`. */
export function roundEnd(before, view, message) {
  if (!view || !view.last_round || view.phase === "over") return null;
  if (before && before.last_round && before.last_round.round === view.last_round.round) return null;
  return roundLine({ seats: message.seats }, view.last_round);
}

export function outcome(view, message) {
  if (!view) return [];
  if (view.game === "pacal-solo") {
    return view.won
      ? [tn("Pyramid complete in {count} draw.", "Pyramid complete in {count} draws.", view.score)]
      : [t("Card {card} had no legal field: the game is lost.", { card: view.card })];
  }
  const lines = [];
  if (view.winner === null || view.winner === undefined) lines.push(t("The match is drawn."));
  else {
    const values = {
      name: seatName(message.seats, view.winner),
      won: view.round_wins[view.winner], lost: view.round_wins[1 - view.winner],
    };
    // The reader's own win in the second person (Korean's 님 is for others).
    lines.push(view.winner === message.seat ? t("You win the match {won}–{lost}.", values)
      : t("{name} wins the match {won}–{lost}.", values));
  }
  if (view.last_round) lines.push(roundLine({ seats: message.seats }, view.last_round));
  return lines;
}
