// Entry point: mounts the app.
import { render } from "preact";
import { App } from "./App";
import { api } from "./api";
import "./style.css";

// The first status is asked for now, while the page renders, not after: the start's last step.
const first = api.status.get();
const root = document.getElementById("app");
if (root) render(<App first={first} />, root);
