// The leaderboards (/leaderboard?game=NAME): players of ranked rooms by rating, with the
// bots on the same scale, and where the logged-in player stands.

import { agentLabel, api, formatNumber, gameTitle, h, languageSwitch, loadCatalogue, loadMessages, t } from "./common.js";
import { applyDisplay, displayControl } from "./access.js";
import { accountHref, currentAccount, ratingText } from "./account.js";

function row(rank, name, rating, games, kind) {
  return h("tr", { class: kind },
    h("td", {}, rank === null ? "" : formatNumber(rank)),
    h("td", {}, name),
    h("td", {}, ratingText(rating)),
    h("td", {}, games === null ? t("bot") : formatNumber(games)));
}

async function show(game) {
  const box = document.getElementById("board");
  const error = document.getElementById("board-error");
  error.hidden = true;
  try {
    const board = await api("GET", `/api/leaderboard/${encodeURIComponent(game)}`);
    const rows = [];
    // Players and bots in one order of rating; bots have no rank.
    const entries = [
      ...board.players.map((player) => ({ ...player, kind: "player" })),
      ...board.bots.map((bot) => ({ ...bot, name: t("{bot} bot", { bot: agentLabel(bot.agent) }), games: null, kind: "bot" })),
    ].sort((a, b) => b.rating - a.rating);
    let rank = 0;
    for (const entry of entries) {
      if (entry.kind === "player") rank += 1;
      rows.push(row(entry.kind === "player" ? rank : null, entry.name, entry, entry.games, entry.kind));
    }
    box.replaceChildren(
      board.players.length ? "" : h("p", { class: "hint" }, t("Nobody has played a ranked game of this yet.")),
      h("table", { class: "leaderboard", id: "leaderboard" },
        h("thead", {}, h("tr", {}, h("th", {}, t("Rank")), h("th", {}, t("Name")), h("th", {}, t("Rating")), h("th", {}, t("Ranked games")))),
        h("tbody", {}, rows)));
    const account = await currentAccount();
    const mine = account && account.ratings[game];
    document.getElementById("board-you").textContent = mine
      ? t("Your rating: {rating}.", { rating: ratingText(mine) }) + (mine.closest_bot ? ` ${t("You are about as strong as the {bot} bot.", { bot: agentLabel(mine.closest_bot) })}` : "")
      : "";
  } catch (problem) {
    error.textContent = problem.message;
    error.hidden = false;
  }
}

async function main() {
  await loadMessages();
  document.querySelector("header.top").append(languageSwitch());
  applyDisplay();
  document.querySelector("header.top").append(displayControl());
  // Logging in from here comes back to this board (the address says which game).
  const accountLink = document.querySelector("header.top a[href='/account']");
  accountLink.href = accountHref();
  accountLink.addEventListener("click", () => { accountLink.href = accountHref(); });
  const catalogue = await loadCatalogue();
  // Ranked play needs two players or more.
  const games = catalogue.games.filter((game) => game.num_players > 1 || game.players_option);
  const select = document.getElementById("board-game");
  select.replaceChildren(...games.map((game) => h("option", { value: game.name }, gameTitle(game.name))));
  const wanted = new URLSearchParams(window.location.search).get("game");
  if (wanted && games.some((game) => game.name === wanted)) select.value = wanted;
  select.addEventListener("change", () => {
    window.history.replaceState(null, "", `/leaderboard?game=${encodeURIComponent(select.value)}`);
    show(select.value);
  });
  if (select.value) await show(select.value);
  document.body.dataset.ready = "true";
}

main();
