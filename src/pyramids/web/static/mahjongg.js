// Mahjongg Pyramids: layered tiles with depth (each layer offset and lighter), free tiles
// marked, click two tiles to match, favors, hint, undo, and the clock of time attack with
// its Solar Barque track (the server keeps the time; the page only draws it).

import { clickable, formatNumber, h, s, seatName, t, tn, wordsText } from "/static/common.js";
import { announce, keysLine, navItem } from "/static/access.js";

const CELL_W = 22;
const CELL_H = 28;
const TILE_W = 2 * CELL_W;
const TILE_H = 2 * CELL_H;
const LIFT_X = 5;
const LIFT_Y = 6;
const SIDE = 5;
const PAD = 14;

// Group marks: shapes, so that tiles differ without colour (Scarab = ring, Papyrus =
// vertical lines, Glyph = square, deity = sun rays, season = leaf, element = triangle,
// royal = crown).
function suitOf(tile) {
  return tile.face ? tile.face.split(" ")[0] : null;
}

function markShape(tile) {
  const cx = TILE_W / 2;
  const cy = 17;
  const group = s("g", { class: "tile-marks" });
  const suit = tile.group === "suit" ? suitOf(tile) : tile.group;
  switch (suit) {
    case "Scarab":
      group.append(s("circle", { class: "tile-mark", cx, cy, r: 8 }));
      break;
    case "Papyrus":
      for (const dx of [-6, 0, 6]) group.append(s("path", { class: "tile-mark", d: `M${cx + dx} ${cy - 8} V${cy + 8}` }));
      break;
    case "Glyph":
      group.append(s("rect", { class: "tile-mark", x: cx - 8, y: cy - 8, width: 16, height: 16 }));
      break;
    case "deity": {
      group.append(s("circle", { class: "tile-mark filled", cx, cy, r: 4 }));
      for (let ray = 0; ray < 8; ray += 1) {
        const angle = (ray * Math.PI) / 4;
        group.append(s("path", {
          class: "tile-mark",
          d: `M${cx + 6 * Math.cos(angle)} ${cy + 6 * Math.sin(angle)} L${cx + 10 * Math.cos(angle)} ${cy + 10 * Math.sin(angle)}`,
        }));
      }
      break;
    }
    case "season":
      group.append(s("path", { class: "tile-mark", d: `M${cx - 9} ${cy + 6} Q${cx - 6} ${cy - 9} ${cx + 9} ${cy - 8} Q${cx + 6} ${cy + 7} ${cx - 9} ${cy + 6} Z` }));
      break;
    case "element":
      group.append(s("path", { class: "tile-mark", d: `M${cx} ${cy - 9} L${cx + 9} ${cy + 7} L${cx - 9} ${cy + 7} Z` }));
      break;
    case "royal":
      group.append(s("path", { class: "tile-mark", d: `M${cx - 10} ${cy + 7} V${cy - 5} L${cx - 5} ${cy + 1} L${cx} ${cy - 8} L${cx + 5} ${cy + 1} L${cx + 10} ${cy - 5} V${cy + 7} Z` }));
      break;
    default:
      break;
  }
  return group;
}

const GROUP_TINT = {
  Scarab: "#dcefee", Papyrus: "#e4f2dc", Glyph: "#f6e0dc",
  deity: "#f8ecc4", season: "#e9f3d2", element: "#dde8f6", royal: "#eadcf3",
};

// The short label drawn on an honour tile, in the reader's language (the engine's
// `short` is English: "Hor", "Anu").
function shortName(face) {
  const labels = {
    // Translators: the short labels drawn on tiles (about 2 letters; Korean: 1-2 syllables).
    Ra: t("Ra"), Horus: t("Hor"), Anubis: t("Anu"), Isis: t("Isi"),
    "Nile Inundation": t("Ni"), Harvest: t("Ha"), Oasis: t("Oa"),
    Sun: t("Su"), Wind: t("Wi"), Sandstorm: t("Sa"),
    "Golden Pharaoh": t("Pha"), "Sacred Scepter": t("Sce"),
  };
  return labels[face];
}

function tileLabel(tile) {
  if (!tile.face) return "?";
  if (tile.group === "suit") return tile.face.split(" ")[1];
  return shortName(tile.face) || tile.short.replace(/[*~]$/, "");
}

// Faces as players read them (the engine's names are English ids).
function faceName(face) {
  if (!face) return t("face-down tile");
  const [suit, value] = face.split(" ");
  if (suit === "Scarab" && value) return t("Scarab {value}", { value });
  if (suit === "Papyrus" && value) return t("Papyrus {value}", { value });
  if (suit === "Glyph" && value) return t("Glyph {value}", { value });
  const names = {
    Ra: t("Ra"), Horus: t("Horus"), Anubis: t("Anubis"), Isis: t("Isis"),
    "Nile Inundation": t("Nile Inundation"), Harvest: t("Harvest"), Oasis: t("Oasis"),
    Sun: t("Sun"), Wind: t("Wind"), Sandstorm: t("Sandstorm"),
    "Golden Pharaoh": t("Golden Pharaoh"), "Sacred Scepter": t("Sacred Scepter"),
  };
  return names[face] || face;
}

// Faces of tiles seen so far, so that a matched pair can still be named after it left.
const knownFaces = new Map();

function describe(tile, ctx) {
  const values = { face: faceName(tile.face), layer: tile.z + 1 };
  let main;
  if (ctx && ctx.ui.mjSelected === tile.id) main = t("{face}, selected, layer {layer}", values);
  else if (tile.free || tile.shifted) main = t("{face}, free, layer {layer}", values);
  else main = t("{face}, blocked, layer {layer}", values);
  const parts = [main];
  if (tile.capstone) parts.push(t("capstone"));
  if (tile.vault) parts.push(t("burial vault"));
  if (tile.shifted) parts.push(t("lifted by Anubis Shift"));
  if (ctx && ctx.marks && ctx.marks.has(tile.id)) parts.push(t("hinted"));
  return parts.join(", ");
}

function bounds(ctx) {
  const tiles = ctx.view.tiles;
  const known = ctx.ui.mjBounds && ctx.ui.mjBounds.layout === ctx.view.layout ? ctx.ui.mjBounds : null;
  const box = known ? { ...known } : { layout: ctx.view.layout, minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity, maxZ: 0 };
  for (const tile of tiles) {
    box.minX = Math.min(box.minX, tile.x);
    box.minY = Math.min(box.minY, tile.y);
    box.maxX = Math.max(box.maxX, tile.x + 2);
    box.maxY = Math.max(box.maxY, tile.y + 2);
    box.maxZ = Math.max(box.maxZ, tile.z);
  }
  if (!Number.isFinite(box.minX)) Object.assign(box, { minX: 0, minY: 0, maxX: 2, maxY: 2 });
  ctx.ui.mjBounds = box;
  return box;
}

function clickTile(ctx, tile) {
  if (ctx.ui.mjShift) {
    ctx.ui.mjShift = false;
    ctx.send(`shift ${tile.id}`);
    return;
  }
  if (ctx.ui.mjReveal) {
    ctx.ui.mjReveal = false;
    ctx.send(`reveal ${tile.id}`);
    return;
  }
  const chosen = ctx.ui.mjSelected;
  if (chosen === tile.id) {
    ctx.ui.mjSelected = null;
    ctx.rerender();
    return;
  }
  if (chosen === null || chosen === undefined || !ctx.view.tiles.some((other) => other.id === chosen)) {
    ctx.ui.mjSelected = tile.id;
    ctx.rerender();
    return;
  }
  ctx.ui.mjSelected = null;
  const [low, high] = [chosen, tile.id].sort((a, b) => a - b);
  sendTimed(ctx, `match ${low} ${high}`);
}

/** Send a move; in time attack the server adds the elapsed time itself. */
function sendTimed(ctx, action) {
  ctx.send(action);
}

function currentElapsed(clock) {
  // With `clock=turns` the engine's moves keep the time: it stands still between them.
  if (clock.turns) return clock.elapsed;
  return Math.min(clock.limit, clock.elapsed + Math.floor((performance.now() - clock.at) / 1000));
}

function tileShape(ctx, tile, box, marks) {
  const px = PAD + (tile.x - box.minX) * CELL_W + (box.maxZ - tile.z) * LIFT_X;
  const py = PAD + (tile.y - box.minY) * CELL_H + (box.maxZ - tile.z) * LIFT_Y;
  const playable = ctx.yourTurn && !ctx.finished;
  const shiftTarget = Boolean(ctx.ui.mjShift) && !tile.free && ctx.legal.includes(`shift ${tile.id}`);
  const revealTarget = Boolean(ctx.ui.mjReveal) && !tile.face && ctx.legal.includes(`reveal ${tile.id}`);
  const picking = ctx.ui.mjShift || ctx.ui.mjReveal;
  const selectable = playable && (picking ? shiftTarget || revealTarget : tile.free || tile.shifted);
  const selected = ctx.ui.mjSelected === tile.id;
  const classes = ["tile", tile.free || tile.shifted ? "free" : "blocked"];
  if (!tile.face) classes.push("facedown");
  if (selected) classes.push("selected");
  if (marks.has(tile.id)) classes.push("hinted");
  const group = s("g", {
    class: classes.join(" "),
    transform: `translate(${px} ${py - (selected ? 4 : 0)})`,
    "data-id": tile.id,
    "data-z": tile.z,
    "data-free": String(Boolean(tile.free || tile.shifted)),
    "data-face": tile.face || "",
  });
  const label = describe(tile, { ui: ctx.ui, marks });
  group.append(s("title", {}, label));
  // The tile's thickness, darker, below and to the right; higher layers are lighter.
  group.append(s("rect", { class: "tile-side", x: SIDE, y: SIDE, width: TILE_W - 1, height: TILE_H - 1, rx: 5 }));
  const light = 80 + tile.z * 4;
  const tint = tile.face ? GROUP_TINT[tile.group === "suit" ? suitOf(tile) : tile.group] : null;
  group.append(s("rect", {
    class: "tile-face", width: TILE_W - 1, height: TILE_H - 1, rx: 5,
    fill: tint || `hsl(38, 40%, ${light}%)`,
    // Blocked tiles are shaded and greyed; higher layers are lighter.
    style: tile.free || tile.shifted
      ? `filter: brightness(${0.94 + tile.z * 0.03})`
      : `filter: brightness(${0.74 + tile.z * 0.03}) saturate(0.55)`,
  }));
  if (tile.face) {
    group.append(markShape(tile));
    group.append(s("text", { class: "tile-label", x: TILE_W / 2, y: TILE_H - 9, "text-anchor": "middle", "aria-hidden": "true" }, tileLabel(tile)));
  } else {
    group.append(s("text", { class: "tile-label", x: TILE_W / 2, y: TILE_H / 2 + 5, "text-anchor": "middle", fill: "#fff", "aria-hidden": "true" }, "?"));
  }
  if (tile.free || tile.shifted) {
    // A free tile carries a corner notch: free is told by shape, not by shade alone.
    group.append(s("path", { class: "free-mark", d: "M3 13 V3 H13" }));
  }
  const badges = [];
  if (tile.capstone) badges.push("▲");
  if (tile.vault) badges.push("V");
  if (tile.shifted) badges.push("⇡");
  if (badges.length) {
    group.append(s("text", { class: "tile-badge", x: TILE_W - 4, y: 11, "text-anchor": "end", "aria-hidden": "true" }, badges.join(" ")));
  }
  if (marks.has(tile.id)) {
    group.append(s("rect", { class: "hint-ring", x: -3, y: -3, width: TILE_W + 5, height: TILE_H + 5, rx: 7 }));
  }
  // Inside the face, so that the tile keeps its outline (and its box) when focused.
  group.append(s("rect", { class: "focus-ring", x: 2, y: 2, width: TILE_W - 5, height: TILE_H - 5, rx: 4 }));
  if (tile.free || tile.shifted || shiftTarget || revealTarget) {
    group.dataset.key = `tile-${tile.id}`;
    // Reading order: rows from the back, left to right, the upper tile first.
    const order = (tile.y * 1000 + tile.x) * 10 + (9 - tile.z);
    if (selectable) {
      const verb = selected ? t("unselect {tile}", { tile: label })
        : ctx.ui.mjShift ? t("lift {tile}", { tile: label })
          : ctx.ui.mjReveal ? t("turn up {tile}", { tile: label }) : label;
      clickable(group, verb, () => clickTile(ctx, tile));
      if (selected) group.setAttribute("aria-pressed", "true");
    }
    navItem(group, group.getAttribute("aria-label") || label, order);
  }
  return group;
}

function board(ctx) {
  const view = ctx.view;
  const box = bounds(ctx);
  const width = (box.maxX - box.minX) * CELL_W + box.maxZ * LIFT_X + 2 * PAD + SIDE;
  const height = (box.maxY - box.minY) * CELL_H + box.maxZ * LIFT_Y + 2 * PAD + SIDE;
  const svg = s("svg", {
    viewBox: `0 0 ${width} ${height}`, class: "board mahjongg", role: "group",
    "aria-label": t("Monument: {left} of {total} tiles left", { left: view.tiles_left, total: view.tiles_total }),
  });
  const marks = hintMarks(view);
  // Lower layers first; within a layer from the back row to the front, left to right,
  // so that each tile's thickness (below and to the right) is drawn over by its neighbours.
  const order = [...view.tiles].sort((a, b) => a.z - b.z || a.y - b.y || a.x - b.x);
  for (const tile of order) svg.append(tileShape(ctx, tile, box, marks));
  // "Large tiles" keeps tiles at their drawn size (44 by 56 px, a finger's width) where
  // the screen is narrower than the monument: the board scrolls sideways instead.
  svg.style.setProperty("--natural-width", `${Math.round(width)}px`);
  return h("div", { class: "board-scroll" }, svg);
}

function hintMarks(view) {
  const marks = new Set();
  if (view.hint) view.hint.forEach((id) => marks.add(id));
  for (const pair of view.sight_pairs || []) pair.forEach((id) => marks.add(id));
  return marks;
}

/** The board in words: the free tiles, row by row from the back. */
function freeTilesText(ctx) {
  const view = ctx.view;
  const marks = hintMarks(view);
  const rows = new Map();
  for (const tile of view.tiles) {
    if (!(tile.free || tile.shifted)) continue;
    if (!rows.has(tile.y)) rows.set(tile.y, []);
    rows.get(tile.y).push(tile);
  }
  const items = [...rows.keys()].sort((a, b) => a - b).map((y, index) => {
    const tiles = rows.get(y).sort((a, b) => a.x - b.x || b.z - a.z).map((tile) => {
      const values = { face: faceName(tile.face), layer: tile.z + 1 };
      return marks.has(tile.id) ? t("{face} (layer {layer}, hinted)", values) : t("{face} (layer {layer})", values);
    });
    return h("li", {}, t("Row {row}: {tiles}", { row: index + 1, tiles: tiles.join(", ") }));
  });
  const free = view.tiles.filter((tile) => tile.free || tile.shifted).length;
  return h("details", { class: "board-text", id: "board-text", open: ctx.ui.mjTextOpen || undefined,
    ontoggle: (event) => { ctx.ui.mjTextOpen = event.target.open; } },
    h("summary", {}, tn("Free tiles by row ({count} free tile)", "Free tiles by row ({count} free tiles)", free)),
    items.length ? h("ol", {}, items) : h("p", {}, t("No free tile.")));
}

/** Why the server says `action` cannot be made now (null: no reason given). */
function offReason(ctx, action) {
  const why = ctx.message && ctx.message.unavailable && ctx.message.unavailable[action];
  return why ? wordsText(why) : null;
}

// A button off now is dimmed and marked unavailable (aria-disabled, not disabled): it
// stays in the Tab order, and says why on hover and to a screen reader. A click or Enter
// on it said nothing (the button was disabled) while its key said why: it says the
// same words now, in the alert line, and plays nothing (as in the terminal app).
function offAttributes(ctx, on, action) {
  if (on) return {};
  const why = offReason(ctx, action);
  return { "aria-disabled": "true", ...(why ? { title: why, "aria-description": why, "data-off-reason": why } : {}) };
}

/** A button's click: `play` when the move is open now, else the reason it is not. */
function whenOn(ctx, on, action, play) {
  return (event) => {
    if (on) {
      play();
      return;
    }
    event.preventDefault();
    if (ctx.yourTurn) sayWhyOff(ctx, action);
    else sayNotYourTurn(ctx, action);
  };
}

/** No reason from the server: on a seated player's page, another seat is to move. */
function sayNotYourTurn(ctx, action) {
  if (sayWhyOff(ctx, action)) return true;
  const seated = ctx.seat !== null && ctx.seat !== undefined;
  if (!seated || ctx.replay || ctx.finished) return false;
  // A tutorial's step to read waits for Next, not for another player.
  ctx.showMessage(ctx.notYourTurn || t("It is not your turn."), "info");
  return true;
}

function button(ctx, action, label, extra = {}) {
  const legal = ctx.legal.includes(action);
  return h("button", {
    "data-action": action, "data-key": `button-${action}`,
    class: extra.class, title: extra.title, "aria-keyshortcuts": extra.key,
    ...offAttributes(ctx, legal, action),
    onclick: whenOn(ctx, legal, action, () => (extra.onclick ? extra.onclick() : sendTimed(ctx, action))),
  }, label);
}

// The letter keys of the buttons (shown on the page and on the buttons for screen readers).
const KEYS = { h: "hint", u: "undo", r: "sight", a: "shift", v: "reveal", s: "reshuffle", f: "finish" };

function toggleShift(ctx) {
  ctx.ui.mjShift = !ctx.ui.mjShift;
  ctx.ui.mjReveal = false;
  ctx.ui.mjSelected = null;
  ctx.rerender();
}

function toggleReveal(ctx) {
  ctx.ui.mjReveal = !ctx.ui.mjReveal;
  ctx.ui.mjShift = false;
  ctx.ui.mjSelected = null;
  ctx.rerender();
}

/** The room's options as created (a replay without a room summary: none, the defaults). */
function roomOptions(ctx) {
  return (ctx.ui.summary && ctx.ui.summary.options) || {};
}

function controls(ctx) {
  const view = ctx.view;
  const canShift = ctx.legal.some((action) => action.startsWith("shift "));
  const canReveal = ctx.legal.some((action) => action.startsWith("reveal "));
  const options = roomOptions(ctx);
  // What each favor costs at this table (the room's options; the game's defaults).
  const cost = (name) => Number(options[name] || FAVOR_COSTS[name]);
  const priced = (favor, name) => tn("{favor} ({count} token)", "{favor} ({count} tokens)", cost(name), { favor });
  const solo = view.players === 1;
  const row = [
    hasFavor(view, "hint") ? button(ctx, "hint", t("Hint"), { key: "H", title: t("show a pair that keeps the board clearable (ends your streak)") }) : null,
    hasFavor(view, "undo") ? button(ctx, "undo", t("Undo"), { key: "U", title: t("take back the last move (ends your streak)") }) : null,
    button(ctx, "sight", priced(t("Ra Sight"), "sight_cost"), { key: "R", title: t("list every valid pair this turn") }),
    h("button", {
      "data-key": "button-shift", "aria-pressed": String(Boolean(ctx.ui.mjShift)),
      class: ctx.ui.mjShift ? "primary" : undefined, "aria-keyshortcuts": "A",
      ...offAttributes(ctx, canShift, "shift"),
      onclick: whenOn(ctx, canShift, "shift", () => toggleShift(ctx)),
    }, ctx.ui.mjShift ? t("Anubis Shift: choose a blocked tile (click again to cancel)") : priced(t("Anubis Shift"), "shift_cost")),
    h("button", {
      "data-key": "button-reveal", "aria-pressed": String(Boolean(ctx.ui.mjReveal)),
      class: ctx.ui.mjReveal ? "primary" : undefined, "aria-keyshortcuts": "V",
      title: t("turn one face-down tile face up, for everyone to see (ends your streak)"),
      ...offAttributes(ctx, canReveal, "reveal"),
      onclick: whenOn(ctx, canReveal, "reveal", () => toggleReveal(ctx)),
    }, ctx.ui.mjReveal ? t("Tile Reveal: choose a face-down tile (click again to cancel)")
      : priced(t("Tile Reveal"), "reveal_cost")),
    // One name for the favor, as the terminal app's button and the move log call it.
    button(ctx, "reshuffle", priced(t("Sandstorm Reshuffle"), "reshuffle_cost"), { key: "S" }),
    hasFavor(view, "finish") ? button(ctx, "finish", t("Finish"), { key: "F" }) : null,
    button(ctx, "pass", solo ? t("Give up") : t("Pass")),
  ].filter(Boolean);
  return h("div", { class: "actions" }, row);
}

/** Whether this game has the move at all: hints and undo in the one-player modes only,
 * finish there and in co-op (the rules' actions table). A button the game never allows
 * stood greyed out for the whole of a two-player game; it is left off, as in the
 * terminal app. */
function hasFavor(view, action) {
  const solo = view.players === 1 && view.mode !== "coop";
  if (action === "hint" || action === "undo") return solo;
  if (action === "finish") return solo || view.mode === "coop";
  return true;
}

// The favors' costs when a room's options leave them at the game's defaults.
const FAVOR_COSTS = { sight_cost: 1, shift_cost: 1, reveal_cost: 1, reshuffle_cost: 3 };

function scorePanel(ctx) {
  const view = ctx.view;
  const seats = Array.from({ length: view.players }, (_, seat) => seat);
  const coop = view.mode === "coop";
  const lines = seats.map((seat) => {
    const tokens = coop ? view.tokens : view.tokens[seat];
    const name = seatName(ctx.seats, seat);
    const parts = [seat === ctx.seat && !ctx.replay ? t("{name} (you)", { name }) : name];
    if (!coop) parts.push(t("score {score}", { score: formatNumber(view.scores[seat]) }));
    if (!coop) parts.push(t("tokens {count}", { count: tokens }));
    parts.push(t("streak {count}", { count: view.streaks[seat] }));
    if (view.doubling[seat]) parts.push(t("doubled ×{count}", { count: view.doubling[seat] }));
    return h("span", { class: view.current_player === seat ? "to-move" : "", "data-seat": seat }, `${view.current_player === seat ? "▶ " : ""}${parts.join(" · ")}`);
  });
  const info = [
    t("Tiles {left} / {total}", { left: view.tiles_left, total: view.tiles_total }),
    coop ? t("Team score {score} · pool {count} tokens", { score: formatNumber(view.team_score), count: view.tokens }) : null,
    t("bank {count}", { count: view.bank }),
    view.vaults.length ? t("vaults: {states}", { states: view.vaults.map((vault) => vaultState(vault.state)).join(", ") }) : null,
    view.capstones.length ? t("capstones: {removed} of {total} removed", { removed: view.capstones.filter((cap) => !cap.on_board).length, total: view.capstones.length }) : null,
  ].filter(Boolean).join(" · ");
  const children = [
    h("p", { class: "score", id: "score" }, info),
    h("div", { class: "panel-row" }, lines),
  ];
  const options = roomOptions(ctx);
  // Under the catch-up order a player may move twice running: say why.
  if (!coop && view.players > 1 && options.turn_order === "behind") {
    children.push(h("p", { class: "hint", id: "turn-order" }, t("Turn order: after a pair the lowest score moves next; after a pass, the next seat.")));
  }
  if (view.mode === "time-attack") {
    if (view.barque) children.unshift(barqueTrack(view), barqueText(view));
    children.unshift(h("p", { class: "timer", id: "timer", "aria-live": "off" }, ""));
  }
  const last = lastPair(view);
  if (last) children.push(h("p", { class: "hint" }, last));
  const hint = hintWords(view);
  if (hint) {
    children.push(h("p", { class: "hint", id: "hint-pair" }, hint));
    // The glow on two tiles says nothing to a screen reader: the pair is said once.
    const key = view.hint.join(" ");
    if (ctx.ui.mjHintSaid !== key) {
      ctx.ui.mjHintSaid = key;
      announce(hint);
    }
  } else {
    ctx.ui.mjHintSaid = null;
  }
  // Ra Sight's pairs glow as the hint's do: said once, each time they change.
  const sight = sightWords(view);
  const sightKey = sight ? JSON.stringify(view.sight_pairs) : null;
  if (sight && ctx.ui.mjSightSaid !== sightKey) announce(sight);
  ctx.ui.mjSightSaid = sightKey;
  if (view.unsolvable && !ctx.finished) {
    const warning = t("⚠ The board can no longer be cleared by matching alone: try a favor, undo, or give up.");
    children.push(h("p", { class: "error", id: "unsolvable" }, warning));
    // The panel is drawn anew at each choice of a tile: a status region made anew each
    // time was said at every redraw or never; the warning is said once, when it comes.
    if (!ctx.ui.mjUnsolvableSaid) announce(warning);
    ctx.ui.mjUnsolvableSaid = true;
  } else {
    ctx.ui.mjUnsolvableSaid = false;
  }
  if (ctx.ui.mjShift) children.push(h("p", { class: "hint" }, t("Anubis Shift: choose a blocked tile to lift.")));
  if (ctx.ui.mjReveal) children.push(h("p", { class: "hint" }, t("Tile Reveal: choose a face-down tile (marked ?) to turn up.")));
  return h("div", { class: "mahjongg-panel" }, children);
}

/** Ra Sight's pairs in words: "Ra Sight: Ra (layer 3) and Horus (layer 1); ...". */
function sightWords(view) {
  const pairs = (view.sight_pairs || []).map((pair) => pair.map((id) => view.tiles.find((tile) => tile.id === id)))
    .filter((tiles) => tiles.every(Boolean))
    .map((tiles) => {
      const [first, second] = tiles.map((tile) => t("{face} (layer {layer})", { face: faceName(tile.face), layer: tile.z + 1 }));
      return t("{first} and {second}", { first, second });
    });
  return pairs.length ? t("Ra Sight: {pairs}", { pairs: pairs.join("; ") }) : null;
}

/** The hinted pair in words: "Hint: match Ra (layer 3) and Horus (layer 1)." */
function hintWords(view) {
  if (!view.hint || view.hint.length !== 2) return null;
  const tiles = view.hint.map((id) => view.tiles.find((tile) => tile.id === id)).filter(Boolean);
  if (tiles.length !== 2) return null;
  const [first, second] = tiles.map((tile) => t("{face} (layer {layer})", { face: faceName(tile.face), layer: tile.z + 1 }));
  return t("Hint: match {first} and {second}.", { first, second });
}

function vaultState(state) {
  const names = { locked: t("locked"), unlocked: t("unlocked"), forfeited: t("forfeited") };
  return names[state] || state;
}

function lastPair(view) {
  const move = view.last_move;
  if (!move || move.points === undefined) return "";
  const parts = [move.doubled ? t("Last pair: +{points} (doubled)", { points: formatNumber(move.points) }) : t("Last pair: +{points}", { points: formatNumber(move.points) })];
  if (move.capstone_bonus) parts.push(t("capstone +{points}", { points: formatNumber(move.capstone_bonus) }));
  if (move.vault_bonus) parts.push(t("vault +{points}", { points: formatNumber(move.vault_bonus) }));
  if (move.speed_bonus) parts.push(t("quick pair +{points}", { points: formatNumber(move.speed_bonus) }));
  if (move.layer_bonus) parts.push(t("layer emptied before sunset +{points}", { points: formatNumber(move.layer_bonus) }));
  if (move.settled && move.settled.length) {
    parts.push(tn("the monument settles: {count} tile turns face up", "the monument settles: {count} tiles turn face up", move.settled.length));
  }
  return parts.join(", ");
}

// -- the Solar Barque track ----------------------------------------------------------

const TRACK_STEP = 26;
const TRACK_H = 34;

/** Where the barque stands after `elapsed` seconds (as the engine's `barque.Track`). */
function barqueSpace(barque, elapsed, limit) {
  if (elapsed >= limit) return barque.spaces;
  return Math.min(barque.spaces, Math.floor(elapsed / barque.space_seconds));
}

/** The track drawn: one mark per space from 0 to sunset (a sun), the spaces sailed
 * filled, and the barque on its space; `tickClock` moves it between views. */
function barqueTrack(view) {
  const barque = view.barque;
  const width = PAD * 2 + barque.spaces * TRACK_STEP;
  const svg = s("svg", {
    viewBox: `0 0 ${width} ${TRACK_H}`, class: "barque-track", id: "barque-track", role: "img",
    "data-space": barque.space, "data-spaces": barque.spaces, width, height: TRACK_H,
    "aria-label": t("Solar Barque track: space {space} of {spaces}", { space: barque.space, spaces: barque.spaces }),
  });
  svg.append(s("path", { d: `M${PAD} ${TRACK_H / 2} H${PAD + barque.spaces * TRACK_STEP}`, stroke: "#3a6ea5", "stroke-width": 3 }));
  for (let space = 0; space <= barque.spaces; space += 1) {
    const x = PAD + space * TRACK_STEP;
    if (space === barque.spaces) {
      const sun = s("g", { class: "barque-sunset", transform: `translate(${x} ${TRACK_H / 2})` });
      sun.append(s("circle", { r: 7, fill: "#e8902a", stroke: "#8a4b0f" }));
      for (let ray = 0; ray < 8; ray += 1) {
        const angle = (ray * Math.PI) / 4;
        sun.append(s("path", { d: `M${9 * Math.cos(angle)} ${9 * Math.sin(angle)} L${12 * Math.cos(angle)} ${12 * Math.sin(angle)}`, stroke: "#8a4b0f" }));
      }
      svg.append(sun);
    } else {
      svg.append(s("circle", { class: "barque-space", "data-space": space, cx: x, cy: TRACK_H / 2, r: 4, fill: space < barque.space ? "#3a6ea5" : "#fff", stroke: "#3a6ea5" }));
    }
  }
  const marker = s("g", { id: "barque-marker", class: "barque-marker", transform: `translate(${PAD + barque.space * TRACK_STEP} ${TRACK_H / 2})` });
  // A boat: a hull and a sail, above the track.
  marker.append(s("path", { d: "M-10 -4 L10 -4 L6 2 L-6 2 Z", fill: "#c8a02a", stroke: "#5a4510" }));
  marker.append(s("path", { d: "M0 -4 V-15 L8 -6 Z", fill: "#f4ecd0", stroke: "#5a4510" }));
  svg.append(marker);
  return svg;
}

/** The track in words after `elapsed` seconds, with what speed is worth then. */
function barqueWords(view, elapsed, limit) {
  const barque = view.barque;
  const left = barque.spaces - barqueSpace(barque, elapsed, limit);
  const parts = [left
    ? tn("Solar Barque: {count} space to sunset", "Solar Barque: {count} spaces to sunset", left)
    : t("Solar Barque: sunset")];
  const quick = barque.quick_until - elapsed;
  if (quick >= 0 && left && barque.quick_bonus) parts.push(tn("quick pair for {count} more second", "quick pair for {count} more seconds", quick));
  // The view gives the layer bonus at its own time: per space, times the spaces left now.
  const perSpace = barque.spaces_left ? barque.layer_bonus / barque.spaces_left : 0;
  if (perSpace && left) parts.push(t("a layer emptied now earns {points}", { points: perSpace * left }));
  return parts.join(" · ");
}

function barqueText(view) {
  const limit = view.elapsed + view.time_left;
  return h("p", { class: "hint", id: "barque-text" }, barqueWords(view, view.elapsed, limit));
}

// -- the clock of time attack ------------------------------------------------------

let clockTimer = null;

function tickClock(ctx) {
  const clock = ctx.ui.mjClock;
  const line = document.getElementById("timer");
  if (!clock || !line) return;
  const elapsed = currentElapsed(clock);
  const left = Math.max(0, clock.limit - elapsed);
  const minutes = Math.floor(left / 60);
  const seconds = String(left % 60).padStart(2, "0");
  line.textContent = t("Time: {minutes}:{seconds} left", { minutes, seconds });
  line.classList.toggle("low", left <= 30);
  const barque = ctx.view && ctx.view.barque;
  const marker = document.getElementById("barque-marker");
  if (barque && marker) {
    // Between views the barque sails on the page's estimate of the server's clock.
    const space = barqueSpace(barque, elapsed, clock.limit);
    marker.setAttribute("transform", `translate(${PAD + space * TRACK_STEP} ${TRACK_H / 2})`);
    const words = document.getElementById("barque-text");
    if (words) words.textContent = barqueWords(ctx.view, elapsed, clock.limit);
  }
  // At 0:00 the server, which keeps the time, ends the game.
}

function updateClock(ctx) {
  const view = ctx.view;
  if (view.mode !== "time-attack" || view.phase === "over") {
    ctx.ui.mjClock = null;
    return;
  }
  const clock = ctx.ui.mjClock;
  if (!clock || clock.elapsed !== view.elapsed) {
    ctx.ui.mjClock = {
      elapsed: view.elapsed, at: performance.now(), limit: view.elapsed + view.time_left,
      sentLimit: clock ? clock.sentLimit : null, turns: Boolean(view.barque && view.barque.clock === "turns"),
    };
  }
}

export function render(box, ctx) {
  const view = ctx.view;
  for (const tile of view.tiles) knownFaces.set(tile.id, tile.face);
  if (ctx.ui.mjSelected !== null && ctx.ui.mjSelected !== undefined && !view.tiles.some((tile) => tile.id === ctx.ui.mjSelected)) {
    ctx.ui.mjSelected = null;
  }
  if (!ctx.yourTurn) {
    ctx.ui.mjShift = false;
    ctx.ui.mjReveal = false;
  }
  updateClock(ctx);
  ctx.ui.mjLatest = view;
  ctx.ui.mjLatestTurn = ctx.yourTurn;
  const help = h("p", { class: "hint" }, ctx.yourTurn
    ? t("Click two free tiles (a notch in the corner) that match. ▲ capstone, V burial vault.")
    : t("Free tiles have a notch in the corner. ▲ capstone, V burial vault."));
  const keys = ctx.replay || ctx.finished ? "" : keysLine([
    ["H", t("Hint"), "hint"], ["U", t("Undo"), "undo"], ["R", t("Ra Sight")], ["A", t("Anubis Shift")],
    ["V", t("Tile Reveal")], ["S", t("Sandstorm Reshuffle")], ["F", t("Finish"), "finish"],
  ].filter(([, , action]) => !action || hasFavor(view, action)).map(([key, words]) => [key, words]));
  // A finished game (or its replay) has no moves left: no buttons, all of them off.
  box.replaceChildren(scorePanel(ctx), board(ctx), ctx.finished ? "" : controls(ctx), help, keys, freeTilesText(ctx));
  if (view.mode === "time-attack") {
    tickClock(ctx);
    if (clockTimer) clearInterval(clockTimer);
    clockTimer = setInterval(() => tickClock(ctx), 250);
  } else if (clockTimer) {
    clearInterval(clockTimer);
    clockTimer = null;
  }
}

/** A letter key: the button it names, when that move is open now. */
export function onKey(key, ctx) {
  const action = KEYS[key];
  if (!action || ctx.finished || ctx.replay) return false;
  // Hint, Undo and Finish have no button in a mode without them; their keys said
  // nothing at all, now they say why (on either player's turn: it is the mode's rule).
  if (!hasFavor(ctx.view, action)) return sayNoSuchFavor(ctx, action);
  // On another seat's turn the key said nothing; it says what its button says on a click.
  if (!ctx.yourTurn) return sayNotYourTurn(ctx, action);
  if (action === "shift" || action === "reveal") {
    if (!ctx.legal.some((entry) => entry.startsWith(`${action} `))) return sayWhyOff(ctx, action);
    if (action === "shift") toggleShift(ctx);
    else toggleReveal(ctx);
    // The key leaves the keyboard on a tile, away from the button that shows the choice
    // on: what to choose now is said.
    if (ctx.ui.mjShift) announce(t("Anubis Shift: choose a blocked tile to lift."));
    if (ctx.ui.mjReveal) announce(t("Tile Reveal: choose a face-down tile (marked ?) to turn up."));
    return true;
  }
  if (!ctx.legal.includes(action)) return sayWhyOff(ctx, action);
  sendTimed(ctx, action);
  return true;
}

/** The key of a favor this mode does not have says so (the engine's own words). */
function sayNoSuchFavor(ctx, action) {
  const words = {
    hint: t("hints exist only in the one-player modes"),
    undo: t("undo exists only in the one-player modes"),
    finish: t("finishing exists only in the one-player modes and co-op"),
  }[action];
  if (!words) return false;
  ctx.showMessage(words.charAt(0).toUpperCase() + words.slice(1), "info");
  return true;
}

/** The key of a move that cannot be made now says why, rather than nothing. */
function sayWhyOff(ctx, action) {
  const why = offReason(ctx, action);
  if (!why) return false;
  ctx.showMessage(why, "info");
  return true;
}

/** Why Enter on a free tile does nothing: Anubis Shift or Tile Reveal waits for another
 * kind of tile (Escape leaves it). */
export function whyNot(node, ctx) {
  if (ctx.ui.mjShift) return t("Anubis Shift: choose a blocked tile to lift.");
  if (ctx.ui.mjReveal) return t("Tile Reveal: choose a face-down tile (marked ?) to turn up.");
  return null;
}

/** Escape: drop the chosen tile, or leave Anubis Shift or Tile Reveal. */
export function cancel(ctx) {
  if (!ctx.ui.mjShift && !ctx.ui.mjReveal && (ctx.ui.mjSelected === null || ctx.ui.mjSelected === undefined)) return false;
  ctx.ui.mjShift = false;
  ctx.ui.mjReveal = false;
  ctx.ui.mjSelected = null;
  return true;
}

/** A move in words, for the last-move line and the live region ("matches two Ra tiles"). */
export function describeMove(action, view) {
  return moveWords(action, view, false);
}

/** The reader's own move in words, as the move log tells it: "You match two Ra tiles". */
export function describeOwnMove(action, view) {
  return moveWords(action, view, true);
}

function moveWords(action, view, you) {
  const [verb, ...rest] = action.split(" ");
  const face = (id) => faceName(knownFaces.get(Number(id)) ?? null);
  if (verb === "match" && rest.length === 2) {
    const last = view && view.last_move && view.last_move.action === action ? view.last_move : null;
    // The view names a pair's faces; a page that came later never saw those tiles.
    const [first, second] = last && last.faces ? last.faces.map(faceName) : rest.map(face);
    const points = last ? last.points : null;
    const counted = points !== null && points !== undefined;
    if (first === second) {
      const values = { face: first, points };
      if (you) return counted ? t("You match two {face} tiles: +{points}", values) : t("You match two {face} tiles", values);
      return counted ? t("matches two {face} tiles: +{points}", values) : t("matches two {face} tiles", values);
    }
    const values = { first, second, points };
    if (you) return counted ? t("You match {first} and {second}: +{points}", values) : t("You match {first} and {second}", values);
    return counted ? t("matches {first} and {second}: +{points}", values) : t("matches {first} and {second}", values);
  }
  if (verb === "shift" && rest.length === 1) {
    const values = { face: face(rest[0]) };
    return you ? t("You lift {face} with Anubis Shift", values) : t("lifts {face} with Anubis Shift", values);
  }
  if (verb === "reveal" && rest.length === 1) {
    return you ? t("You turn up a face-down tile with a Tile Reveal") : t("turns up a face-down tile with a Tile Reveal");
  }
  if (verb === "clock") return t("the clock runs");
  const words = you ? {
    pass: t("You pass"), hint: t("You ask for a hint"), undo: t("You take back the last move"),
    sight: t("You use Ra Sight"), reshuffle: t("You call a Sandstorm Reshuffle"), finish: t("You finish the monument"),
  } : {
    pass: t("passes"), hint: t("asks for a hint"), undo: t("takes back the last move"),
    sight: t("uses Ra Sight"), reshuffle: t("calls a Sandstorm Reshuffle"), finish: t("finishes the monument"),
  };
  return words[verb] || null;
}

export function outcome(view, message) {
  if (!view || !view.result) return [];
  const result = view.result;
  const reasons = {
    cleared: t("The monument is cleared!"),
    "all-passed": t("Every player passed: the game ends."),
    lockout: t("No pair left and no token to spend: lockout."),
    "time-up": t("Time is up."),
  };
  const lines = [reasons[result.reason] || result.reason];
  const names = (seats) => seats.map((seat) => seatName(message.seats, seat)).join(", ");
  if (view.mode === "coop") {
    // The team loses a cleared monument when a vault was left locked or forfeited: say so.
    const vaultsLost = view.vaults.length && view.vaults.some((vault) => vault.state !== "unlocked");
    lines.push(result.team_won ? t("The team wins.")
      : vaultsLost ? t("The team loses: not every burial vault was unlocked.") : t("The team loses."));
  } else if (view.players > 1) {
    lines.push(result.winners.length > 1 ? t("Winners: {names}.", { names: names(result.winners) }) : t("Winner: {names}.", { names: names(result.winners) }));
  }
  if (view.mode === "coop") {
    // One score for the whole team, not the first seat's.
    lines.push(t("Team score: {score}.", { score: formatNumber(result.scores[0]) }));
  } else if (view.players > 1) {
    lines.push(t("Scores: {scores}.", { scores: result.scores.map((score, seat) => `${seatName(message.seats, seat)} ${formatNumber(score)}`).join(", ") }));
  } else {
    lines.push(t("Score: {score}.", { score: formatNumber(result.scores[0]) }));
  }
  if (view.mode === "time-attack") lines.push(t("Time score: {score} ({seconds} s left).", { score: formatNumber(result.time_score), seconds: formatNumber(result.time_left) }));
  return lines;
}
