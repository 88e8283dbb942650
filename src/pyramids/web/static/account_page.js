// The account page (/account): log in or register; ratings and finished games.

import { languageSwitch, loadCatalogue, loadMessages } from "./common.js";
import { applyDisplay, displayControl } from "./access.js";
import { renderAccountPage } from "./account.js";

async function main() {
  await loadMessages();
  document.querySelector("header.top").append(languageSwitch());
  applyDisplay();
  document.querySelector("header.top").append(displayControl());
  await loadCatalogue().catch(() => null);
  await renderAccountPage();
  document.body.dataset.ready = "true";
}

main();
