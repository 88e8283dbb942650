// Mahjongg Pyramids: layered tiles with depth (each layer offset and lighter), free tiles
// marked, click two tiles to match, favors, hint, undo, and the clock of time attack.

import { clickable, h, s, seatName } from "/static/common.js";

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

function tileLabel(tile) {
  if (!tile.face) return "?";
  if (tile.group === "suit") return tile.face.split(" ")[1];
  return tile.short.replace(/[*~]$/, "");
}

function describe(tile) {
  const parts = [tile.face || "face-down tile", `layer ${tile.z + 1}`];
  parts.push(tile.free ? "free" : "blocked");
  if (tile.capstone) parts.push("capstone");
  if (tile.vault) parts.push("burial vault");
  if (tile.shifted) parts.push("lifted by Anubis Shift");
  return `tile ${tile.id}: ${parts.join(", ")}`;
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
  return Math.min(clock.limit, clock.elapsed + Math.floor((performance.now() - clock.at) / 1000));
}

function tileShape(ctx, tile, box, marks) {
  const px = PAD + (tile.x - box.minX) * CELL_W + (box.maxZ - tile.z) * LIFT_X;
  const py = PAD + (tile.y - box.minY) * CELL_H + (box.maxZ - tile.z) * LIFT_Y;
  const playable = ctx.yourTurn && !ctx.finished;
  const selectable = playable && (ctx.ui.mjShift ? !tile.free && ctx.legal.includes(`shift ${tile.id}`) : tile.free || tile.shifted);
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
  group.append(s("title", {}, describe(tile)));
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
    group.append(s("text", { class: "tile-label", x: TILE_W / 2, y: TILE_H - 9, "text-anchor": "middle" }, tileLabel(tile)));
  } else {
    group.append(s("text", { class: "tile-label", x: TILE_W / 2, y: TILE_H / 2 + 5, "text-anchor": "middle", fill: "#fff" }, "?"));
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
    group.append(s("text", { class: "tile-badge", x: TILE_W - 4, y: 11, "text-anchor": "end" }, badges.join(" ")));
  }
  if (marks.has(tile.id)) {
    group.append(s("rect", { class: "hint-ring", x: -3, y: -3, width: TILE_W + 5, height: TILE_H + 5, rx: 7 }));
  }
  if (selectable) {
    group.dataset.key = `tile-${tile.id}`;
    clickable(group, `${selected ? "unselect " : ctx.ui.mjShift ? "lift " : ""}${describe(tile)}`, () => clickTile(ctx, tile));
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
    "aria-label": `monument: ${view.tiles_left} of ${view.tiles_total} tiles left`,
  });
  const marks = new Set();
  if (view.hint) view.hint.forEach((id) => marks.add(id));
  for (const pair of view.sight_pairs || []) pair.forEach((id) => marks.add(id));
  // Lower layers first; within a layer from the back row to the front, left to right,
  // so that each tile's thickness (below and to the right) is drawn over by its neighbours.
  const order = [...view.tiles].sort((a, b) => a.z - b.z || a.y - b.y || a.x - b.x);
  for (const tile of order) svg.append(tileShape(ctx, tile, box, marks));
  return svg;
}

function button(ctx, action, label, extra = {}) {
  const legal = ctx.legal.includes(action);
  return h("button", {
    "data-action": action, "data-key": `button-${action}`, disabled: !legal,
    class: extra.class, title: extra.title,
    onclick: () => (extra.onclick ? extra.onclick() : sendTimed(ctx, action)),
  }, label);
}

function controls(ctx) {
  const view = ctx.view;
  const canShift = ctx.legal.some((action) => action.startsWith("shift "));
  const solo = view.players === 1;
  const row = [
    button(ctx, "hint", "Hint", { title: "show a pair that keeps the board clearable (ends your streak)" }),
    button(ctx, "undo", "Undo", { title: "take back the last move (ends your streak)" }),
    button(ctx, "sight", "Ra Sight (1 token)", { title: "list every valid pair this turn" }),
    h("button", {
      "data-key": "button-shift", disabled: !canShift, "aria-pressed": String(Boolean(ctx.ui.mjShift)),
      class: ctx.ui.mjShift ? "primary" : undefined,
      onclick: () => {
        ctx.ui.mjShift = !ctx.ui.mjShift;
        ctx.ui.mjSelected = null;
        ctx.rerender();
      },
    }, ctx.ui.mjShift ? "Anubis Shift: choose a blocked tile (click again to cancel)" : "Anubis Shift (1 token)"),
    button(ctx, "reshuffle", "Sandstorm Reshuffle (3 tokens)"),
    button(ctx, "finish", "Finish"),
    button(ctx, "pass", solo ? "Give up" : "Pass"),
  ];
  return h("div", { class: "actions" }, row);
}

function scorePanel(ctx) {
  const view = ctx.view;
  const seats = Array.from({ length: view.players }, (_, seat) => seat);
  const coop = view.mode === "coop";
  const lines = seats.map((seat) => {
    const tokens = coop ? view.tokens : view.tokens[seat];
    const parts = [`${seatName(ctx.seats, seat)}${seat === ctx.seat ? " (you)" : ""}`];
    if (!coop) parts.push(`score ${view.scores[seat]}`);
    if (!coop) parts.push(`tokens ${tokens}`);
    parts.push(`streak ${view.streaks[seat]}`);
    if (view.doubling[seat]) parts.push(`doubled ×${view.doubling[seat]}`);
    return h("span", { class: view.current_player === seat ? "to-move" : "", "data-seat": seat }, `${view.current_player === seat ? "▶ " : ""}${parts.join(" · ")}`);
  });
  const info = [
    `Tiles ${view.tiles_left} / ${view.tiles_total}`,
    coop ? `Team score ${view.team_score} · pool ${view.tokens} tokens` : null,
    `bank ${view.bank}`,
    view.vaults.length ? `vaults: ${view.vaults.map((vault) => vault.state).join(", ")}` : null,
    view.capstones.length ? `capstones: ${view.capstones.filter((cap) => !cap.on_board).length} of ${view.capstones.length} removed` : null,
  ].filter(Boolean).join(" · ");
  const last = view.last_move && view.last_move.points !== undefined
    ? `Last pair: +${view.last_move.points}${view.last_move.doubled ? " (doubled)" : ""}${view.last_move.capstone_bonus ? `, capstone +${view.last_move.capstone_bonus}` : ""}${view.last_move.vault_bonus ? `, vault +${view.last_move.vault_bonus}` : ""}`
    : "";
  const children = [
    h("p", { class: "score", id: "score" }, info),
    h("div", { class: "panel-row" }, lines),
  ];
  if (view.mode === "time-attack") {
    children.unshift(h("p", { class: "timer", id: "timer", "aria-live": "off" }, ""));
  }
  if (last) children.push(h("p", { class: "hint" }, last));
  if (view.unsolvable) children.push(h("p", { class: "error", role: "status" }, "⚠ The board can no longer be cleared by matching alone: try a favor, undo, or give up."));
  if (ctx.ui.mjShift) children.push(h("p", { class: "hint" }, "Anubis Shift: choose a blocked tile to lift."));
  return h("div", { class: "mahjongg-panel" }, children);
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
  line.textContent = `Time: ${minutes}:${seconds} left`;
  line.classList.toggle("low", left <= 30);
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
    ctx.ui.mjClock = { elapsed: view.elapsed, at: performance.now(), limit: view.elapsed + view.time_left, sentLimit: clock ? clock.sentLimit : null };
  }
}

export function render(box, ctx) {
  const view = ctx.view;
  if (ctx.ui.mjSelected !== null && ctx.ui.mjSelected !== undefined && !view.tiles.some((tile) => tile.id === ctx.ui.mjSelected)) {
    ctx.ui.mjSelected = null;
  }
  if (!ctx.yourTurn) ctx.ui.mjShift = false;
  updateClock(ctx);
  ctx.ui.mjLatest = view;
  ctx.ui.mjLatestTurn = ctx.yourTurn;
  const help = h("p", { class: "hint" }, ctx.yourTurn
    ? "Click two free tiles (a notch in the corner) that match. ▲ capstone, V burial vault."
    : "Free tiles have a notch in the corner. ▲ capstone, V burial vault.");
  box.replaceChildren(scorePanel(ctx), board(ctx), controls(ctx), help);
  if (view.mode === "time-attack") {
    tickClock(ctx);
    if (clockTimer) clearInterval(clockTimer);
    clockTimer = setInterval(() => tickClock(ctx), 250);
  } else if (clockTimer) {
    clearInterval(clockTimer);
    clockTimer = null;
  }
}

export function outcome(view, message) {
  if (!view || !view.result) return [];
  const result = view.result;
  const reasons = {
    cleared: "The monument is cleared!",
    "all-passed": "Every player passed: the game ends.",
    lockout: "No pair left and no token to spend: lockout.",
    "time-up": "Time is up.",
  };
  const lines = [reasons[result.reason] || result.reason];
  if (view.mode === "coop") lines.push(result.team_won ? "The team wins." : "The team loses.");
  else if (view.players > 1) lines.push(`Winner${result.winners.length > 1 ? "s" : ""}: ${result.winners.map((seat) => seatName(message.seats, seat)).join(", ")}.`);
  lines.push(`Score${view.players > 1 ? "s" : ""}: ${result.scores.map((score, seat) => (view.players > 1 ? `${seatName(message.seats, seat)} ${score}` : String(score))).join(", ")}.`);
  if (view.mode === "time-attack") lines.push(`Time score: ${result.time_score} (${result.time_left} s left).`);
  return lines;
}
