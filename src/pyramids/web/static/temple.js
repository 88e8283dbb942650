// Temple of Inscriptions: the nine levels (built ones marked), the swap zone, the
// construction under way, the hand by kind, and every player's treasure.

import { clickable, formatNumber, h, s, seatName, t, tn } from "/static/common.js";
import { keysLine, navItem } from "/static/access.js";

const KINDS = ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "L9", "J"];
const CW = 58;
const CH = 80;
const STEP_H = 38;
const BASE_W = 380;

function kindName(kind) {
  if (!kind) return t("empty");
  return kind === "J" ? t("jewel card") : t("level {level} card", { level: kind.slice(1) });
}

function setParts(cards, pairs) {
  const parts = [];
  if (cards) parts.push(tn("{count} card", "{count} cards", cards));
  if (pairs) parts.push(tn("{count} jewel pair", "{count} jewel pairs", pairs));
  return parts.join(" + ");
}

/** A card of a kind: a level card shows its level and a small stepped mark, a jewel a diamond. */
function kindCard(kind, x, y, extra = {}) {
  const group = s("g", { class: `kind-card ${extra.class || ""}`, transform: `translate(${x} ${y})`, "data-kind": kind ?? "" });
  if (!kind) {
    group.append(s("rect", { class: "slot-face empty", width: CW, height: CH, rx: 6 }),
      s("text", { class: "label small", x: CW / 2, y: CH / 2 + 4, "text-anchor": "middle" }, t("empty")),
      s("rect", { class: "focus-ring", x: -5, y: -5, width: CW + 10, height: CH + 10, rx: 9 }));
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
  group.append(s("rect", { class: "focus-ring", x: -5, y: -5, width: CW + 10, height: CH + 10, rx: 9 }));
  return group;
}

function pyramidShape(view, x, y) {
  const label = view.level && view.built < 9
    ? t("Temple: {built} of 9 levels built, level {level} under construction", { built: view.built, level: view.level })
    : t("Temple: {built} of 9 levels built", { built: view.built });
  const group = s("g", { class: "temple-pyramid", role: "img", "aria-label": label });
  for (let level = 1; level <= 9; level += 1) {
    const width = BASE_W - (level - 1) * 36;
    const sx = x + (BASE_W - width) / 2;
    const sy = y + (9 - level) * STEP_H;
    const built = level <= view.built;
    const current = view.level === level;
    const state = built ? "built" : current ? "current" : "open";
    const step = s("g", { class: `level ${state}`, "data-level": level, "data-state": state });
    step.append(s("rect", { class: `level-step ${state}`, x: sx, y: sy, width, height: STEP_H - 3, rx: 3 }));
    let text = `L${level}`;
    if (built) text = t("✓ L{level} built", { level });
    else if (current) text = t("L{level} ▸ under construction", { level });
    step.append(s("text", { class: "level-label", x: x + BASE_W / 2, y: sy + 23, "text-anchor": "middle" }, text));
    group.append(step);
  }
  return group;
}

function constructionShape(ctx, x, y) {
  const view = ctx.view;
  const group = s("g", { class: "construction" });
  const c = view.construction;
  group.append(s("text", { class: "phase", x, y }, c ? t("Construction of level {level}", { level: c.level }) : t("No construction under way")));
  if (!c) {
    if (view.phase === "summon") {
      group.append(s("text", { class: "label", x, y: y + 22 }, t("Passes in a row: {count}", { count: view.passes })));
    }
    return group;
  }
  group.append(s("text", { class: "label", x, y: y + 22 },
    t("Summoned by {name} · {units} of 5 units set, {missing} missing", { name: seatName(ctx.seats, c.summoner), units: c.units, missing: c.missing })));
  for (let unit = 0; unit < 5; unit += 1) {
    const filled = unit < c.units;
    group.append(s("rect", { class: `unit-slot${filled ? " filled" : ""}`, x: x + unit * 30, y: y + 32, width: 24, height: 24, rx: 3 }));
    if (filled) group.append(s("path", { d: `M${x + unit * 30 + 5} ${y + 44} l5 5 l9 -10`, stroke: "#fff", "stroke-width": 3, fill: "none" }));
  }
  // A call to t() inside another's arguments is not extracted for the catalogue: apart.
  const nothing = t("nothing");
  c.sets.forEach((entry, index) => {
    group.append(s("text", { class: "label small", x, y: y + 74 + index * 15 },
      t("{name}: {cards}", { name: seatName(ctx.seats, entry.player), cards: setParts(entry.cards, entry.jewel_pairs) || nothing })));
  });
  if (view.phase === "set") {
    group.append(s("text", { class: "label", x: x + 170, y: y + 50 }, t("Next to set: {name}", { name: seatName(ctx.seats, c.next) })));
  }
  return group;
}

/** How far below its title the construction's drawing reaches (its last line's foot). */
function constructionDepth(view) {
  const c = view.construction;
  if (!c) return view.phase === "summon" ? 22 : 0;
  return Math.max(56, 74 + (c.sets.length - 1) * 15);
}

function swapZoneShape(ctx, x, y) {
  const view = ctx.view;
  const group = s("g", { class: "swap-zone" });
  group.append(s("text", { class: "phase", x, y: y - 8 }, t("Swap zone")));
  const chosen = ctx.ui.templeKind;
  view.swap_zone.forEach((kind, index) => {
    const action = chosen ? `swap ${chosen} ${index + 1}` : null;
    const legal = action && ctx.legal.includes(action);
    const card = kindCard(kind, x + index * (CW + 10), y, { class: legal ? "legal" : "" });
    card.dataset.slot = index + 1;
    card.dataset.key = `slot-${index + 1}`;
    const values = { slot: index + 1, kind: kindName(kind), given: kindName(chosen) };
    if (legal) {
      card.append(s("rect", { class: "legal-ring", x: -4, y: -4, width: CW + 8, height: CH + 8, rx: 9 }));
      card.dataset.action = action;
      clickable(card, t("Give a {given} for the {kind} in slot {slot}", values), () => {
        ctx.ui.templeKind = null;
        ctx.send(action);
      });
    }
    navItem(card, card.getAttribute("aria-label") || t("Swap zone slot {slot}: {kind}", values));
    group.append(card);
  });
  return group;
}

function handShape(ctx, x, y, width) {
  const view = ctx.view;
  const held = KINDS.filter((kind) => view.hand[kind]).map((kind) => t("{kind} ×{count}", { kind: kindName(kind), count: view.hand[kind] }));
  const group = s("g", { class: "hand", role: "group", "aria-label": t("your hand: {cards}", { cards: held.join(", ") || t("no cards") }) });
  group.append(s("text", { class: "phase", x, y: y - 8 }, t("Your hand")));
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
    const values = { kind: kindName(kind), count: view.hand[kind] };
    if (swapping && ctx.legal.some((action) => action.startsWith(`swap ${kind} `))) {
      clickable(card, chosen ? t("{kind}, you hold {count}, chosen to give", values) : t("{kind}, you hold {count}, choose to give", values), () => {
        ctx.ui.templeKind = chosen ? null : kind;
        ctx.rerender();
      });
      card.setAttribute("aria-pressed", String(chosen));
    }
    navItem(card, card.getAttribute("aria-label") || t("{kind}, you hold {count}", values));
    group.append(card);
  });
  if (!kinds.length) group.append(s("text", { class: "label", x, y: y + 30 }, t("no cards")));
  return group;
}

function setLabel(action) {
  const [, cards, pairs] = action.split(" ").map(Number);
  if (!cards && !pairs) return t("Set nothing");
  const units = tn("{count} unit", "{count} units", cards + pairs);
  return t("Set {cards} ({units})", { cards: setParts(cards, pairs), units });
}

/** Why this seat's buttons of the phase cannot be used now (null: they can, or the page
 * has no seat to play). */
function notYourTurn(ctx) {
  const seated = ctx.seat !== null && ctx.seat !== undefined;
  if (!seated || ctx.yourTurn || ctx.replay || ctx.finished || ctx.view.phase === "over") return null;
  // A tutorial's step to read waits for Next, not for another player.
  return ctx.notYourTurn || t("It is {name}'s turn.", { name: seatName(ctx.seats, ctx.view.current_player) });
}

/** A button of the phase: on when its move is open, else dimmed and marked unavailable
 * (aria-disabled, not disabled: it stays in the Tab order), saying why on hover, to a
 * screen reader, and in the alert line on a click, Enter or its key. */
function phaseButton(ctx, action, label, { why, key, primary, play }) {
  return h("button", {
    class: primary ? "primary" : undefined, "data-action": why ? undefined : action,
    "data-key": action === "swap pass" ? "swap-pass" : action, "aria-keyshortcuts": key,
    ...(why ? { "aria-disabled": "true", title: why, "aria-description": why, "data-off-reason": why } : {}),
    onclick: (event) => {
      if (why) {
        event.preventDefault();
        ctx.showMessage(why, "info");
        return;
      }
      play();
    },
  }, label);
}

function summonLabel(ctx) {
  const view = ctx.view;
  return view.treasure[ctx.seat] > 0
    ? t("Summon level {level} (pay 1 point)", { level: view.level })
    : t("Summon level {level} (free: you have no points)", { level: view.level });
}

function controls(ctx) {
  const view = ctx.view;
  const buttons = [];
  // Another seat is to move: the buttons of the phase stay in sight, dimmed, and say
  // whose turn it is (they were left off: the bar came and went, and K, S, P said nothing).
  const waiting = notYourTurn(ctx);
  if (ctx.legal.includes("swap pass")) {
    buttons.push(h("span", { class: "hint" }, ctx.ui.templeKind
      ? t("Now choose a slot of the swap zone for your {kind}.", { kind: kindName(ctx.ui.templeKind) })
      : t("To swap, choose a card of your hand, then a slot of the swap zone.")));
    buttons.push(phaseButton(ctx, "swap pass", t("Keep my hand"), { key: "K", play: () => { ctx.ui.templeKind = null; ctx.send("swap pass"); } }));
  } else if (waiting && view.phase === "swap") {
    buttons.push(phaseButton(ctx, "swap pass", t("Keep my hand"), { key: "K", why: waiting }));
  }
  if (ctx.legal.includes("summon")) {
    buttons.push(phaseButton(ctx, "summon", summonLabel(ctx), { key: "S", primary: true, play: () => ctx.send("summon") }));
  } else if (waiting && view.phase === "summon" && view.level) {
    buttons.push(phaseButton(ctx, "summon", summonLabel(ctx), { key: "S", primary: true, why: waiting }));
  }
  if (ctx.legal.includes("pass")) {
    buttons.push(phaseButton(ctx, "pass", t("Pass"), { key: "P", play: () => ctx.send("pass") }));
  } else if (waiting && view.phase === "summon") {
    buttons.push(phaseButton(ctx, "pass", t("Pass"), { key: "P", why: waiting }));
  }
  for (const action of ctx.legal.filter((entry) => entry.startsWith("set "))) {
    buttons.push(h("button", { "data-action": action, "data-key": action, onclick: () => ctx.send(action) }, setLabel(action)));
  }
  return h("div", { class: "actions sticky-actions" }, buttons);
}

function playersTable(ctx) {
  const view = ctx.view;
  const rows = view.treasure.map((points, seat) => {
    const toMove = view.current_player === seat;
    return h("tr", { class: toMove ? "to-move" : "", "data-seat": seat },
      h("td", {}, `${toMove ? "▶ " : ""}${seat === ctx.seat && !ctx.replay ? t("{name} (you)", { name: seatName(ctx.seats, seat) }) : seatName(ctx.seats, seat)}`),
      h("td", {}, formatNumber(points)),
      h("td", {}, String(view.hand_sizes[seat])),
      h("td", {}, ...counts(view.known[seat] || {}, "–")),
      view.scores ? h("td", {}, formatNumber(view.scores[seat])) : null);
  });
  return h("table", { class: "players" },
    h("caption", { class: "sr-only" }, t("Players")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Treasure")), h("th", { scope: "col" }, t("Cards")), h("th", { scope: "col" }, t("Known cards")),
      view.scores ? h("th", { scope: "col" }, t("Score")) : null)),
    h("tbody", {}, rows));
}

/** Counts of each kind, short to the eye ("L4×1 J×2") and in words to a screen reader,
 * which read the short form as "L4 times 1 J times 2": the short text is hidden from it,
 * the words ("1 level-4 card, 2 jewels") are shown only to it. */
function counts(map, empty = t("none")) {
  return [h("span", { "aria-hidden": "true" }, shortCounts(map) || empty),
    h("span", { class: "sr-only" }, cardsWords(map) || t("none"))];
}

function shortCounts(map) {
  return KINDS.filter((kind) => map[kind]).map((kind) => `${kind}×${map[kind]}`).join(" ");
}

function phaseName(phase) {
  const names = { swap: t("Swap"), summon: t("Construction: summon or pass"), set: t("Construction: set cards"), over: t("Game over") };
  return names[phase] || phase;
}

export function render(box, ctx) {
  const view = ctx.view;
  const narrow = window.innerWidth < 640;
  const width = narrow ? BASE_W + 40 : 920;
  const pyramidX = 20;
  const pyramidY = 20;
  const sideX = narrow ? 20 : BASE_W + 60;
  const sideY = narrow ? 9 * STEP_H + 60 : 40;
  // Wide: the hand stands in the right column under the construction (its five sets'
  // lines end 134 below its title), not under the pyramid's foot, so that the board is
  // short enough for the hand and the choices under it (Keep my hand) to show together.
  // Narrow: the hand follows the construction's last line (a fixed place left about
  // 90 px of nothing on a phone under "No construction under way").
  const constructionY = sideY + CH + 50;
  const handY = narrow ? constructionY + constructionDepth(view) + 36 : constructionY + 160;
  const height = Math.max(pyramidY + 9 * STEP_H, handY + CH) + 30;
  // A card chosen to give stays chosen only while a swap is to be made and the hand
  // holds it: another tab of this seat (or the clock's bot) may have made the swap.
  const swapping = ctx.legal.some((action) => action.startsWith("swap ") && action !== "swap pass");
  if (ctx.ui.templeKind && !(swapping && view.hand && view.hand[ctx.ui.templeKind])) ctx.ui.templeKind = null;
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "board temple", role: "group", "aria-label": t("Temple table") });
  svg.append(pyramidShape(view, pyramidX, pyramidY));
  svg.append(swapZoneShape(ctx, sideX, sideY + 10));
  svg.append(constructionShape(ctx, sideX, constructionY));
  if (view.hand) svg.append(handShape(ctx, narrow ? 20 : sideX, handY, narrow ? width - 40 : width - sideX - 20));
  else svg.append(s("text", { class: "label", x: narrow ? 20 : sideX, y: handY + 20 }, t("Hands are hidden from spectators.")));
  const score = h("p", { class: "score", id: "score" },
    t("Round {round} of at most {max} · {phase} · levels built: {built} of 9 · pile {pile}", {
      round: view.round, max: view.max_rounds, phase: phaseName(view.phase), built: view.built, pile: view.pile_size,
    }));
  // The line twice: short to the eye, in words to a screen reader (counts).
  const none = t("none");
  const extra = h("p", { class: "hint temple-discard" },
    h("span", { "aria-hidden": "true" }, t("Discard: {discard} · out of the game: {out}", {
      discard: shortCounts(view.discard) || none, out: shortCounts(view.out_of_game) || none })),
    h("span", { class: "sr-only" }, t("Discard: {discard} · out of the game: {out}", {
      discard: cardsWords(view.discard) || none, out: cardsWords(view.out_of_game) || none })));
  const keys = ctx.replay || ctx.finished ? "" : keysLine([["K", t("Keep my hand")], ["S", t("Summon")], ["P", t("Pass")]]);
  box.replaceChildren(score, svg, controls(ctx), keys, playersTable(ctx), extra);
}

/** K keeps the hand, S summons, P passes; off their phase or turn, each says when it may
 * be used (they said nothing). */
export function onKey(key, ctx) {
  const action = { k: "swap pass", s: "summon", p: "pass" }[key];
  if (!action || ctx.replay || ctx.finished) return false;
  if (ctx.yourTurn && ctx.legal.includes(action)) {
    ctx.ui.templeKind = null;
    ctx.send(action);
    return true;
  }
  if (ctx.seat === null || ctx.seat === undefined || !ctx.view || ctx.view.phase === "over") return false;
  const phase = action === "swap pass" ? "swap" : "summon";
  const waiting = notYourTurn(ctx);
  if (waiting && ctx.view.phase === phase) ctx.showMessage(waiting, "info");
  else if (action === "swap pass") ctx.showMessage(t("You can keep your hand only on your turn to swap."), "info");
  else if (action === "summon") ctx.showMessage(t("You can summon only on your turn to summon or pass."), "info");
  else ctx.showMessage(t("You can pass only on your turn to summon or pass."), "info");
  return true;
}

/** Why Enter on a swap zone slot swaps nothing: no card of the hand chosen to give yet. */
export function whyNot(node, ctx) {
  if (!node.dataset.slot) return null;
  if (!ctx.legal.some((action) => action.startsWith("swap ") && action !== "swap pass")) return null;
  if (!ctx.ui.templeKind) return t("First choose the card of your hand to give.");
  return null;
}

/** Escape: put back the card chosen to give. */
export function cancel(ctx) {
  if (!ctx.ui.templeKind) return false;
  ctx.ui.templeKind = null;
  return true;
}

/** A move in words, for the last-move line and the live region ("keeps their hand"). */
export function describeMove(action, view) {
  return moveWords(action, view, false);
}

/** The reader's own move in words, as the move log tells it: "You keep your hand". */
export function describeOwnMove(action, view) {
  return moveWords(action, view, true);
}

function moveWords(action, view, you) {
  const [verb, ...rest] = action.split(" ");
  if (verb === "swap" && rest[0] === "pass") return you ? t("You keep your hand") : t("keeps their hand");
  if (verb === "swap" && rest.length === 2) {
    const values = { kind: kindName(rest[0]), slot: rest[1] };
    return you ? t("You give a {kind} to slot {slot} of the swap zone", values)
      : t("gives a {kind} to slot {slot} of the swap zone", values);
  }
  if (verb === "summon") {
    const level = view && view.construction ? view.construction.level : null;
    if (level) return you ? t("You summon level {level}", { level }) : t("summons level {level}", { level });
    return you ? t("You summon") : t("summons");
  }
  if (verb === "pass") return you ? t("You pass") : t("passes");
  if (verb === "set" && rest.length === 2) {
    const [cards, pairs] = rest.map(Number);
    if (!cards && !pairs) return you ? t("You set nothing") : t("sets nothing");
    const values = { cards: setParts(cards, pairs) };
    return you ? t("You set {cards}", values) : t("sets {cards}", values);
  }
  return null;
}

/** `2 level-3 cards, 1 jewel`: a count of each kind, as the move log says them. */
function cardsWords(map) {
  return KINDS.filter((kind) => map[kind] > 0).map((kind) => (kind === "J"
    ? tn("{count} jewel", "{count} jewels", map[kind])
    : tn("{count} level-{level} card", "{count} level-{level} cards", map[kind], { level: kind.slice(1) }))).join(", ");
}

/** What the move just made ended, for the live region (the move log says it, but a
 * screen reader heard only the moves): a level built or a construction failed, and a
 * new round with who begins it and the cards this seat drew. */
export function roundEnd(before, view, message) {
  if (!before || !view || view.phase === "over") return null;
  const lines = [];
  if (view.built > before.built) lines.push(t("Level {level} is built.", { level: view.built }));
  else if (before.construction && !view.construction) {
    lines.push(t("The construction of level {level} failed: every card set goes back to its owner.", { level: before.construction.level }));
  }
  if (view.round > before.round) {
    const first = view.start_player === message.seat ? t("you") : seatName(message.seats, view.start_player);
    lines.push(t("Round {round} begins; first to play: {seat}.", { round: view.round, seat: first }));
    if (view.hand && before.hand) {
      // The hand's new cards, less those a failed construction gave back.
      const drawn = { ...view.hand };
      for (const [kind, count] of Object.entries(before.hand)) drawn[kind] = (drawn[kind] || 0) - count;
      const failed = view.built === before.built ? before.construction : null;
      for (const entry of (failed ? failed.sets : []).filter((set) => set.player === message.seat)) {
        drawn[`L${failed.level}`] = (drawn[`L${failed.level}`] || 0) - entry.cards;
        drawn.J = (drawn.J || 0) - 2 * entry.jewel_pairs;
      }
      const words = cardsWords(drawn);
      if (words) lines.push(t("You drew {cards}.", { cards: words }));
    }
  }
  return lines.length ? lines.join(" ") : null;
}

export function outcome(view, message) {
  if (!view || !view.scores) return [];
  const winners = view.winners || [];
  const names = winners.map((seat) => (seat === message.seat ? t("{name} (you)", { name: seatName(message.seats, seat) }) : seatName(message.seats, seat)));
  const lines = [winners.length > 1 ? t("Shared win: {names}.", { names: names.join(", ") })
    : winners[0] === message.seat ? t("You win.") : t("{name} wins.", { name: names[0] })];
  lines.push(t("Scores (treasure + jewels): {scores}.", { scores: view.scores.map((score, seat) => `${seatName(message.seats, seat)} ${formatNumber(score)}`).join(", ") }));
  lines.push(t("Levels built: {built} of 9.", { built: view.built }));
  return lines;
}
