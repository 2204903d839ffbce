//! Things that move: a React scene in the tree rendered frame by frame in headless Chromium to
//! deterministic PNG stills, frame directories and video. This is the only crate that knows
//! Chromium and the DevTools protocol.
//!
//! **Time is replaced, not measured.** Before any scene code runs (init scripts registered, then
//! a navigation — never `setContent`), `js/clock.js` takes over `requestAnimationFrame`,
//! `performance.now`, `Date`, timers, `MessageChannel`, Reanimated's timestamp, CSS animations
//! and the Web Animations API. Frame f is t = f/fps; the renderer drives the page to a frame and
//! the compositor draws it (`HeadlessExperimental.beginFrame` on the headless shell: nothing is
//! painted unless asked). So frame N is exactly N, two renders are byte-identical, and a
//! re-render after an edit is a real diff.
//!
//! A render, in order (`render.rs`):
//! 1. validate the arguments (`args.rs`), refuse past the frame ceiling, and start a budget job
//!    whose estimate comes from this host's measured frame rate (folio-budget), refused before
//!    any work when it would outlive the run;
//! 2. walk the scene's module graph and transform each source with oxc (`transform.rs`): a
//!    syntax error, a missing sibling or a package Folio does not provide fails here, with
//!    file:line, before a browser is asked for anything;
//! 3. claim the environment's browser (`pool.rs`: one per environment, reused, closed when
//!    idle) and, for Reanimated scenes, lift worklets with the real Babel plugin in a page of
//!    that browser (`worklets.rs`);
//! 4. open one or more tabs (`tab.rs`), each in a fresh browser context, every request answered
//!    by the [`site::Site`] from the tree or Folio's embedded files and everything else refused;
//!    wait for the mount, racing the page's first error;
//! 5. drive and capture each frame; a second tab walks (drives and paints, no capture) to its
//!    first frame so its pixels carry the same compositor history as one tab's;
//! 6. on the calling thread, take frames in order, hash them, feed folio-media's encoder over
//!    stdin, write frame files, step the job (cancel and the deadline stop it within a frame);
//! 7. collect warnings (page errors, missing and refused URLs, broken images, missing fonts,
//!    characters no installed font can draw (named, with the first frame showing them),
//!    "every frame is identical") — identical frames *and* page errors are an error instead.
//!
//! The page side (clock, frame globals, the `folio/motion` and `remotion` modules,
//! `@remotion/transitions` and the `@remotion/shapes` components written from their docs, the
//! entry that mounts the scene, the worklets page) is JavaScript under `js/`; React, react-dom,
//! react-native-web, Reanimated, react-native-svg's web elements, zod, @remotion/paths, noise and
//! the shapes' path builders, and Babel 7 standalone are vendored under `vendor/` by
//! `scripts/vendor-js.sh` (pinned, hashes checked). `build.rs` embeds both trees, so nothing is
//! read from disk and no Node runs at render time.
//!
//! The DevTools client (`cdp.rs`) is written for the ~15 methods a render uses, over the
//! browser's WebSocket: a generated client of all of CDP is ~100k lines and minutes of cold build
//! on two cores, which the test command's time budget cannot carry.

pub mod args;
pub mod browser;
pub mod cdp;
pub mod check;
pub mod discovery;
pub mod docs;
pub mod doctor;
pub mod error;
pub mod modules;
pub mod pool;
pub mod render;
pub mod scripts;
pub mod site;
pub mod tab;
pub mod transform;
pub mod worklets;
