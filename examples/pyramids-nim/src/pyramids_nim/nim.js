// Nim in the browser: the pile as stones, one button a legal move.
// A renderer module exports render(box, ctx) and may export outcome(view, message).
import { h, tn } from "/static/common.js";

export function render(box, ctx) {
  const view = ctx.view;
  const stones = h("p", { class: "nim-pile", "aria-label": tn("{count} stone", "{count} stones", view.stones) }, "● ".repeat(view.stones));
  const moves = ctx.yourTurn && !ctx.finished
    ? ctx.legal.map((text) => h("button", { type: "button", onclick: () => ctx.send(text) }, text))
    : [];
  box.replaceChildren(stones, h("div", { class: "actions" }, ...moves));
}
