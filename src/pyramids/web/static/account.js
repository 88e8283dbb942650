// Accounts in the pages: the header's login line, the account page (log in, register,
// ratings, history), and the rating change shown after a ranked game. The session is
// an HttpOnly cookie; api() sends the CSRF cookie's value with every change.

import { agentLabel, api, formatNumber, gameTitle, h, t, tn } from "./common.js";

let current;

/** The logged-in account ({name, ratings, games}) or null; asked once per page. */
export async function currentAccount(refresh = false) {
  if (current === undefined || refresh) {
    try {
      current = (await api("GET", "/api/account")).account;
    } catch (problem) {
      current = null;
    }
  }
  return current;
}

/** Where a login sends the player back to: `value` when it is a path of this site
 * ("/play/abc?lang=ko"), else null. Only a path that starts with one "/" and
 * resolves to this origin is taken: "//elsewhere.example", "/\\elsewhere.example",
 * "https://elsewhere.example/" and "javascript:..." are refused, so that a link's
 * `next=` cannot send a player who logs in to another site. */
export function returnPath(value) {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//")) return null;
  // A backslash reads as a slash in an address; controls and spaces have no place in one.
  if (/[\\\s\u0000-\u001f\u007f]/.test(value)) return null;
  let address;
  try {
    address = new URL(value, window.location.origin);
  } catch (problem) {
    return null;
  }
  if (address.origin !== window.location.origin || address.pathname === "/account") return null;
  return address.pathname + address.search + address.hash;
}

/** The account page's address from this page: it brings the player back here after
 * logging in (see returnPath), to `hash` ("#solitaire") when given. */
export function accountHref(hash = window.location.hash) {
  const here = returnPath(window.location.pathname + window.location.search + hash);
  return here ? `/account?next=${encodeURIComponent(here)}` : "/account";
}

/** The header's line: who is logged in, or a link to log in. */
export async function accountLine() {
  const account = await currentAccount();
  const box = h("p", { class: "account-line", id: "account-line" });
  const board = h("a", { class: "learn-link", href: "/leaderboard" }, t("Leaderboards"));
  if (account) {
    box.append(h("a", { href: "/account", id: "account-name" }, t("Logged in as {name}", { name: account.name })), " ", board);
  } else {
    box.append(h("a", { href: accountHref(), id: "login-link" }, t("Log in or register")), " ", board);
  }
  return box;
}

/** Why the lobby cannot make this ranked room for you (null: it can): only players
 * logged in take a ranked room's seats, and a room of bots alone rates nobody. */
export async function rankedRefusal(ranked, seats) {
  if (!ranked) return null;
  if (!seats.some((seat) => seat.kind !== "bot")) return t("A ranked room needs at least one player with an account.");
  if (seats.some((seat) => seat.kind === "me") && !(await currentAccount())) {
    return t("Log in to play a ranked room: ratings belong to accounts.");
  }
  return null;
}

export function ratingText(rating) {
  return t("{rating} ± {deviation}", {
    rating: formatNumber(Math.round(rating.rating)),
    deviation: formatNumber(Math.round(2 * rating.deviation)),
  });
}

/** After a ranked game: the player's new rating, the change, the bot of about that strength. */
export async function renderRatingChange(message, summary) {
  const box = document.getElementById("rating-change");
  if (!box || box.dataset.done || message.status !== "finished" || message.seat === null) return;
  if (!summary || !summary.ranked) return;
  box.dataset.done = "pending";
  const account = await currentAccount(true);
  const game = account && account.games.find((entry) => entry.room === message.room);
  if (!game || game.rating_after === null) {
    delete box.dataset.done;
    return;
  }
  box.dataset.done = "true";
  const change = Math.round(game.rating_after - game.rating_before);
  const rating = account.ratings[message.game];
  const parts = [
    h("p", { id: "rating-after" }, t("Your rating: {rating} ({change})", {
      rating: formatNumber(Math.round(game.rating_after)),
      change: `${change >= 0 ? "+" : ""}${formatNumber(change)}`,
    })),
  ];
  if (rating && rating.closest_bot) {
    parts.push(h("p", { class: "hint" }, t("You are about as strong as the {bot} bot.", { bot: agentLabel(rating.closest_bot) })));
  }
  box.replaceChildren(...parts);
  box.hidden = false;
}

// -- the account page ------------------------------------------------------------------

function showError(text) {
  const box = document.getElementById("account-error");
  box.textContent = text;
  box.hidden = !text;
}

function credentialsForm(id, title, button, path) {
  const name = h("input", { name: "name", id: `${id}-name`, maxlength: 40, required: true, autocomplete: "username" });
  const password = h("input", {
    name: "password", id: `${id}-password`, type: "password", required: true, minlength: 8,
    autocomplete: id === "register" ? "new-password" : "current-password",
  });
  const form = h("form", { id, class: "panel" },
    h("h2", {}, title),
    h("label", { class: "field" }, h("span", {}, t("Name")), name),
    h("label", { class: "field" }, h("span", {}, t("Password")), password),
    id === "register" ? h("p", { class: "hint" }, t("At least 8 characters. The server keeps only a hash of it.")) : null,
    h("button", { type: "submit", class: "primary" }, button));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    try {
      await api("POST", path, { name: name.value.trim(), password: password.value });
      password.value = "";
      current = undefined;
      // Logged in from a link (a ranked room's seat, the daily deal): back to that page.
      const back = returnPath(new URLSearchParams(window.location.search).get("next"));
      if (back) {
        window.location.assign(back);
        return;
      }
      await renderAccountPage();
    } catch (problem) {
      showError(problem.message);
    }
  });
  return form;
}

function outcome(entry) {
  const ended = entry.status === "aborted" ? entry.ended : null;
  // The forfeiting seats by the players' names (seats count from 1 where a name is missing).
  const named = (seats) => seats.map((seat) => (entry.players && entry.players[seat])
    || t("seat {number}", { number: seat + 1 })).join(", ");
  if (ended && ended.reason === "timeouts") {
    // A ranked forfeit: the seat that let its clock run out turn after turn lost to
    // every other seat; only those matches are rated.
    return ended.seat === entry.seat ? t("lost: out of time, turn after turn")
      : t("won against {name}, who ran out of time turn after turn", { name: named([ended.seat]) });
  }
  if (ended && ended.reason === "away" && Array.isArray(ended.seats)) {
    // The host ended a ranked game over players away: they lost to every seat still there.
    if (!ended.seats.includes(entry.seat)) {
      return t("won against {names}, away when the host ended the game", { names: named(ended.seats) });
    }
    const players = entry.players ? entry.players.length : 0;
    return ended.seats.length >= players ? t("not rated: every player was away when the host ended the game")
      : t("lost: away when the host ended the game");
  }
  // Ended without a result by no choice of its host: the operator, or the move limit.
  if (ended && ended.reason === "operator") return t("closed by the server's operator");
  if (ended && ended.reason === "move_limit") return t("ended at the most moves a room may hold");
  if (entry.status === "aborted") return t("ended by the host");
  if (!entry.returns) return "";
  const mine = entry.returns[entry.seat];
  const best = Math.max(...entry.returns);
  if (mine < best) return t("lost");
  const top = entry.returns.filter((value) => value === best).length;
  // Every seat the same: a co-op team's common win or loss, a draw only at 0.
  if (top === entry.returns.length && best !== 0) return best > 0 ? t("won") : t("lost");
  return top > 1 ? t("drawn") : t("won");
}

function historyTable(games) {
  if (!games.length) return h("p", { class: "hint" }, t("No finished games yet."));
  return h("table", { class: "history", id: "history" },
    h("thead", {}, h("tr", {}, h("th", {}, t("Game")), h("th", {}, t("Result")), h("th", {}, t("Rating")), h("th", {}, t("Room")))),
    h("tbody", {}, games.map((entry) => {
      const rated = entry.rating_after !== null;
      const change = rated ? Math.round(entry.rating_after - entry.rating_before) : null;
      return h("tr", {},
        h("td", {}, gameTitle(entry.game)),
        h("td", {}, outcome(entry)),
        h("td", {}, rated ? `${formatNumber(Math.round(entry.rating_after))} (${change >= 0 ? "+" : ""}${formatNumber(change)})` : t("unranked")),
        h("td", {}, h("a", { href: `/play/${encodeURIComponent(entry.room)}` }, t("Open"))));
    })));
}

function passwordInput(id, autocomplete) {
  return h("input", { name: id, id, type: "password", required: true, minlength: 8, maxlength: 256, autocomplete });
}

/** Change the password: the current one first; every other login of the account ends. */
function passwordForm() {
  const current = passwordInput("current-password", "current-password");
  const fresh = passwordInput("new-password", "new-password");
  const done = h("p", { class: "hint", id: "password-changed", role: "status", hidden: true }, t("Password changed. Your other logins have ended."));
  const form = h("form", { id: "change-password", class: "panel" },
    h("h3", {}, t("Change password")),
    h("label", { class: "field" }, h("span", {}, t("Current password")), current),
    h("label", { class: "field" }, h("span", {}, t("New password")), fresh),
    h("p", { class: "hint" }, t("At least 8 characters. The server keeps only a hash of it.")),
    h("button", { type: "submit" }, t("Change password")), done);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    done.hidden = true;
    try {
      await api("POST", "/api/account/password", { password: current.value, new_password: fresh.value });
      current.value = "";
      fresh.value = "";
      done.hidden = false;
    } catch (problem) {
      showError(problem.message);
    }
  });
  return form;
}

/** Delete the account: its ratings, history and logins go; games others played stay theirs. */
function deleteForm() {
  const password = passwordInput("delete-password", "current-password");
  const form = h("form", { id: "delete-account", class: "panel" },
    h("h3", {}, t("Delete account")),
    h("p", { class: "hint" }, t("Your ratings, your game history and your logins are deleted, and your name is free for anyone to register. Finished games keep the name you played under, as the other players' games. This cannot be undone.")),
    h("label", { class: "field" }, h("span", {}, t("Current password")), password),
    h("button", { type: "submit" }, t("Delete my account")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    if (!window.confirm(t("Delete your account for good?"))) return;
    try {
      await api("POST", "/api/account/delete", { password: password.value });
      password.value = "";
      current = undefined;
      await renderAccountPage();
    } catch (problem) {
      showError(problem.message);
    }
  });
  return form;
}

export async function renderAccountPage() {
  const main = document.getElementById("account");
  const account = await currentAccount();
  if (!account) {
    main.replaceChildren(
      credentialsForm("login", t("Log in"), t("Log in"), "/api/account/login"),
      credentialsForm("register", t("New account"), t("Register"), "/api/account/register"),
      h("p", { class: "hint" }, t("You can play by name without an account; ranked rooms need one.")),
    );
    return;
  }
  const ratings = Object.entries(account.ratings);
  const logout = h("button", { id: "logout" }, t("Log out"));
  logout.addEventListener("click", async () => {
    try {
      await api("POST", "/api/account/logout");
      current = undefined;
      await renderAccountPage();
    } catch (problem) {
      showError(problem.message);
    }
  });
  // Come from a link of another page while logged in already (in another tab): a way back.
  const back = returnPath(new URLSearchParams(window.location.search).get("next"));
  main.replaceChildren(
    h("section", { class: "panel" },
      h("h2", { id: "account-title" }, t("Logged in as {name}", { name: account.name })),
      back ? h("p", {}, h("a", { href: back, id: "return-link", class: "button primary" }, t("Back to the page you came from"))) : null,
      logout,
      h("h3", {}, t("Ratings")),
      ratings.length
        ? h("ul", { id: "ratings" }, ratings.map(([game, rating]) => h("li", {},
            h("strong", {}, gameTitle(game)), " ", ratingText(rating), " · ",
            tn("{count} ranked game", "{count} ranked games", rating.games),
            rating.closest_bot ? ` · ${t("You are about as strong as the {bot} bot.", { bot: agentLabel(rating.closest_bot) })}` : "")))
        : h("p", { class: "hint" }, t("Play a ranked room to get a rating.")),
      h("h3", {}, t("Finished games")),
      historyTable(account.games)),
    passwordForm(),
    deleteForm());
}
