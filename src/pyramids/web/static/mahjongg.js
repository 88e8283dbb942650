export function render(box, ctx) { box.textContent = JSON.stringify(ctx.view); }
