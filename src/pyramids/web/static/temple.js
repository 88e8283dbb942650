// Temple of Inscriptions: the nine levels (built ones marked), the swap zone, the
// construction under way, the hand by kind, and every player's treasure.

import { clickable, h, s, seatName } from "/static/common.js";

const KINDS = ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "L9", "J"];
const CW = 58;
const CH = 80;
const STEP_H = 38;
const BASE_W = 380;

function kindName(kind) {
  return kind === "J" ? "jewel" : `level ${kind.slice(1)} card`;
}

/** A card of a kind: a level card shows its level and a small stepped mark, a jewel a diamond. */
function kindCard(kind, x, y, extra = {}) {
  const group = s("g", { class: `kind-card ${extra.class || ""}`, transform: `translate(${x} ${y})`, "data-kind": kind ?? "" });
  if (!kind) {
    group.append(s("rect", { class: "slot-face empty", width: CW, height: CH, rx: 6 }),
      s("text", { class: "label small", x: CW / 2, y: CH / 2 + 4, "text-anchor": "middle" }, "empty"));
    return group;
  }
  const jewel = kind === "J";
  group.append(s("rect", { class: `slot-face${jewel ? " jewel" : ""}`, width: CW, height: CH, rx: 6 }));
  if (jewel) {
    group.append(s("path", { class: "tile-mark", d: `M${CW / 2} 12 L${CW - 12} 32 L${CW / 2} 52 L12 32 Z` }));
    group.append(s("text", { class: "kind-label", x: CW / 2, y: CH - 10, "text-anchor": "middle" }, "J"));
  } else {
    const level = Number(kind.slice(1));
    // Steps: one bar per three levels, so levels differ by shape as well as by number.
    for (let bar = 0; bar < Math.ceil(level / 3); bar += 1) {
      const width = 36 - bar * 10;
      group.append(s("rect", { class: "tile-mark filled", x: (CW - width) / 2, y: 52 - bar * 7, width, height: 5 }));
    }
    group.append(s("text", { class: "kind-label", x: CW / 2, y: 30, "text-anchor": "middle" }, kind));
  }
  if (extra.count !== undefined) {
    group.append(s("circle", { class: "legal-badge", cx: CW - 4, cy: CH - 4, r: 11 }),
      s("text", { class: "count-label", x: CW - 4, y: CH, "text-anchor": "middle" }, `×${extra.count}`));
  }
  group.append(s("title", {}, kindName(kind)));
  return group;
}

function pyramidShape(view, x, y) {
  const group = s("g", { class: "temple-pyramid", role: "img", "aria-label": `temple: ${view.built} of 9 levels built` });
  for (let level = 1; level <= 9; level += 1) {
    const width = BASE_W - (level - 1) * 36;
    const sx = x + (BASE_W - width) / 2;
    const sy = y + (9 - level) * STEP_H;
    const built = level <= view.built;
    const current = view.level === level;
    const state = built ? "built" : current ? "current" : "open";
    const step = s("g", { class: `level ${state}`, "data-level": level, "data-state": state });
    step.append(s("rect", { class: `level-step ${state}`, x: sx, y: sy, width, height: STEP_H - 3, rx: 3 }));
    let label = `L${level}`;
    if (built) label = `✓ L${level} built`;
    else if (current) label = `L${level} ▸ under construction`;
    step.append(s("text", { class: "level-label", x: x + BASE_W / 2, y: sy + 23, "text-anchor": "middle" }, label));
    group.append(step);
  }
  return group;
}

function constructionShape(ctx, x, y) {
  const view = ctx.view;
  const group = s("g", { class: "construction" });
  const c = view.construction;
  group.append(s("text", { class: "phase", x, y }, c ? `Construction of level ${c.level}` : "No construction under way"));
  if (!c) {
    if (view.phase === "summon") {
      group.append(s("text", { class: "label", x, y: y + 22 }, `Passes in a row: ${view.passes}`));
    }
    return group;
  }
  group.append(s("text", { class: "label", x, y: y + 22 },
    `Summoned by ${seatName(ctx.seats, c.summoner)} · ${c.units} of 5 units set, ${c.missing} missing`));
  for (let unit = 0; unit < 5; unit += 1) {
    const filled = unit < c.units;
    group.append(s("rect", { class: `unit-slot${filled ? " filled" : ""}`, x: x + unit * 30, y: y + 32, width: 24, height: 24, rx: 3 }));
    if (filled) group.append(s("path", { d: `M${x + unit * 30 + 5} ${y + 44} l5 5 l9 -10`, stroke: "#fff", "stroke-width": 3, fill: "none" }));
  }
  c.sets.forEach((entry, index) => {
    group.append(s("text", { class: "label small", x, y: y + 74 + index * 15 },
      `${seatName(ctx.seats, entry.player)}: ${entry.cards} card${entry.cards === 1 ? "" : "s"} + ${entry.jewel_pairs} jewel pair${entry.jewel_pairs === 1 ? "" : "s"}`));
  });
  if (view.phase === "set") {
    group.append(s("text", { class: "label", x: x + 170, y: y + 50 }, `Next to set: ${seatName(ctx.seats, c.next)}`));
  }
  return group;
}

function swapZoneShape(ctx, x, y) {
  const view = ctx.view;
  const group = s("g", { class: "swap-zone" });
  group.append(s("text", { class: "phase", x, y: y - 8 }, "Swap zone"));
  const chosen = ctx.ui.templeKind;
  view.swap_zone.forEach((kind, index) => {
    const action = chosen ? `swap ${chosen} ${index + 1}` : null;
    const legal = action && ctx.legal.includes(action);
    const card = kindCard(kind, x + index * (CW + 10), y, { class: legal ? "legal" : "" });
    card.dataset.slot = index + 1;
    if (legal) {
      card.append(s("rect", { class: "legal-ring", x: -4, y: -4, width: CW + 8, height: CH + 8, rx: 9 }));
      card.dataset.action = action;
      card.dataset.key = `slot-${index + 1}`;
      clickable(card, `give a ${kindName(chosen)} for the ${kindName(kind)} in slot ${index + 1}`, () => {
        ctx.ui.templeKind = null;
        ctx.send(action);
      });
    }
    group.append(card);
  });
  return group;
}

function handShape(ctx, x, y, width) {
  const view = ctx.view;
  const group = s("g", { class: "hand" });
  group.append(s("text", { class: "phase", x, y: y - 8 }, "Your hand"));
  const swapping = ctx.legal.some((action) => action.startsWith("swap ") && action !== "swap pass");
  const kinds = KINDS.filter((kind) => view.hand[kind]);
  const step = Math.min(CW + 10, kinds.length > 1 ? (width - CW) / (kinds.length - 1) : 0);
  kinds.forEach((kind, index) => {
    const chosen = ctx.ui.templeKind === kind;
    const card = kindCard(kind, x + index * step, y - (chosen ? 10 : 0), {
      count: view.hand[kind],
      class: `${chosen ? "selected" : ""} in-hand`,
    });
    card.dataset.key = `hand-${kind}`;
    if (swapping && ctx.legal.some((action) => action.startsWith(`swap ${kind} `))) {
      clickable(card, `${chosen ? "unselect" : "choose"} a ${kindName(kind)} to give (you hold ${view.hand[kind]})`, () => {
        ctx.ui.templeKind = chosen ? null : kind;
        ctx.rerender();
      });
    }
    group.append(card);
  });
  if (!kinds.length) group.append(s("text", { class: "label", x, y: y + 30 }, "no cards"));
  return group;
}

function setLabel(action) {
  const [, cards, pairs] = action.split(" ").map(Number);
  const parts = [];
  if (cards) parts.push(`${cards} card${cards > 1 ? "s" : ""}`);
  if (pairs) parts.push(`${pairs} jewel pair${pairs > 1 ? "s" : ""}`);
  return parts.length ? `Set ${parts.join(" + ")} (${cards + pairs} unit${cards + pairs > 1 ? "s" : ""})` : "Set nothing";
}

function controls(ctx) {
  const view = ctx.view;
  const buttons = [];
  if (ctx.legal.includes("swap pass")) {
    buttons.push(h("span", { class: "hint" }, ctx.ui.templeKind
      ? `Now choose a slot of the swap zone for your ${kindName(ctx.ui.templeKind)}.`
      : "To swap, choose a card of your hand, then a slot of the swap zone."));
    buttons.push(h("button", { "data-action": "swap pass", "data-key": "swap-pass", onclick: () => { ctx.ui.templeKind = null; ctx.send("swap pass"); } }, "Keep my hand"));
  }
  if (ctx.legal.includes("summon")) {
    const cost = view.treasure[ctx.seat] > 0 ? "pay 1 point" : "free: you have no points";
    buttons.push(h("button", { class: "primary", "data-action": "summon", "data-key": "summon", onclick: () => ctx.send("summon") }, `Summon level ${view.level} (${cost})`));
  }
  if (ctx.legal.includes("pass")) {
    buttons.push(h("button", { "data-action": "pass", "data-key": "pass", onclick: () => ctx.send("pass") }, "Pass"));
  }
  for (const action of ctx.legal.filter((entry) => entry.startsWith("set "))) {
    buttons.push(h("button", { "data-action": action, "data-key": action, onclick: () => ctx.send(action) }, setLabel(action)));
  }
  return h("div", { class: "actions" }, buttons);
}

function playersTable(ctx) {
  const view = ctx.view;
  const rows = view.treasure.map((points, seat) => {
    const known = Object.entries(view.known[seat] || {}).map(([kind, count]) => `${kind}×${count}`).join(" ") || "–";
    const toMove = view.current_player === seat;
    return h("tr", { class: toMove ? "to-move" : "", "data-seat": seat },
      h("td", {}, `${toMove ? "▶ " : ""}${seatName(ctx.seats, seat)}${seat === ctx.seat ? " (you)" : ""}`),
      h("td", {}, String(points)),
      h("td", {}, String(view.hand_sizes[seat])),
      h("td", {}, known),
      view.scores ? h("td", {}, String(view.scores[seat])) : null);
  });
  return h("table", { class: "players" },
    h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Treasure"), h("th", {}, "Cards"), h("th", {}, "Known cards"),
      view.scores ? h("th", {}, "Score") : null)),
    h("tbody", {}, rows));
}

function counts(map) {
  const text = KINDS.filter((kind) => map[kind]).map((kind) => `${kind}×${map[kind]}`).join(" ");
  return text || "none";
}

const PHASES = { swap: "Swap", summon: "Construction: summon or pass", set: "Construction: set cards", over: "Game over" };

export function render(box, ctx) {
  const view = ctx.view;
  const narrow = window.innerWidth < 640;
  const width = narrow ? BASE_W + 40 : 920;
  const pyramidX = 20;
  const pyramidY = 20;
  const sideX = narrow ? 20 : BASE_W + 60;
  const sideY = narrow ? 9 * STEP_H + 60 : 40;
  const handY = narrow ? sideY + 270 : 9 * STEP_H + 70;
  const height = handY + CH + 30;
  if (!view.hand && ctx.ui.templeKind) ctx.ui.templeKind = null;
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "board temple", role: "group", "aria-label": "Temple table" });
  svg.append(pyramidShape(view, pyramidX, pyramidY));
  svg.append(swapZoneShape(ctx, sideX, sideY + 10));
  svg.append(constructionShape(ctx, sideX, sideY + CH + 50));
  if (view.hand) svg.append(handShape(ctx, narrow ? 20 : sideX, handY, narrow ? width - 40 : width - sideX - 20));
  else svg.append(s("text", { class: "label", x: narrow ? 20 : sideX, y: handY + 20 }, "Hands are hidden from spectators."));
  const score = h("p", { class: "score", id: "score" },
    `Round ${view.round} of at most ${view.max_rounds} · ${PHASES[view.phase] || view.phase} · levels built: ${view.built} of 9 · pile ${view.pile_size}`);
  const extra = h("p", { class: "hint" }, `Discard: ${counts(view.discard)} · out of the game: ${counts(view.out_of_game)}`);
  box.replaceChildren(score, svg, controls(ctx), playersTable(ctx), extra);
}

export function outcome(view, message) {
  if (!view || !view.scores) return [];
  const winners = view.winners || [];
  const names = winners.map((seat) => `${seatName(message.seats, seat)}${seat === message.seat ? " (you)" : ""}`);
  const lines = [winners.length > 1 ? `Shared win: ${names.join(", ")}.` : `${names[0]} wins.`];
  lines.push(`Scores (treasure + jewels): ${view.scores.map((score, seat) => `${seatName(message.seats, seat)} ${score}`).join(", ")}.`);
  lines.push(`Levels built: ${view.built} of 9.`);
  return lines;
}
