//! The environment's zones: the top-level directories that belong to the environment rather than
//! to the person's folder. One table, [`ZONES`], says for each where it is mounted, what it
//! holds, whether the agent may write in it, whether its bytes are served to the desktop's webview
//! and whether the person's file tree shows it. The mount table, the gateway's refusals, the
//! checkpoints, the `folio://` scheme, the previews and the desktop tree all read it.
//!
//! Zones never reach the overlay, so nothing in them is ever part of a commit; the tree shows the
//! visible ones apart from the person's own folders for that reason.

use folio_vfs::VPath;

/// One environment zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Zone {
    /// `/tmp`: scratch space and spilled output.
    Tmp,
    /// `/std`: the generated module documentation.
    Std,
    /// `/skills`: the environment's worked recipes.
    Skills,
    /// `/.env`: run history, undo versions, checkpoints, the orientation file.
    Env,
}

/// Everything known about one zone.
#[derive(Debug)]
pub struct ZoneRow {
    /// The zone (its index in [`ZONES`]).
    pub zone: Zone,
    /// The top-level name (`tmp`).
    pub name: &'static str,
    /// The mount point (`/tmp`).
    pub path: &'static str,
    /// What it holds, phrased to follow the path in a sentence ("/std holds …").
    pub holds: &'static str,
    /// True when the agent's verbs and scripts may change it.
    pub agent_writable: bool,
    /// True when its files may be served to the desktop's webview (`folio://`, previews).
    pub served: bool,
    /// True when the person's file tree lists it (in its own group, apart from the folder's).
    pub in_tree: bool,
    /// The state-directory subdirectory that keeps it across processes; `None` when it is
    /// regenerated in memory at every start.
    pub state_subdir: Option<&'static str>,
    /// True when each write to it is flushed to disk before it replaces the old file (the
    /// environment's own state: run log, checkpoints, undo history); scratch space skips that.
    pub durable: bool,
}

/// The zones, in the order orientation and the tree list them.
pub static ZONES: [ZoneRow; 4] = [
    ZoneRow {
        zone: Zone::Tmp,
        name: "tmp",
        path: "/tmp",
        holds: "holds intermediates and spilled output; never part of the person's folder",
        agent_writable: true,
        served: true,
        in_tree: true,
        state_subdir: Some("tmp"),
        durable: false,
    },
    ZoneRow {
        zone: Zone::Std,
        name: "std",
        path: "/std",
        holds: "holds the generated module documentation",
        agent_writable: false,
        served: true,
        in_tree: true,
        state_subdir: None,
        durable: false,
    },
    ZoneRow {
        zone: Zone::Skills,
        name: "skills",
        path: "/skills",
        holds: "holds the environment's worked recipes",
        agent_writable: false,
        served: true,
        in_tree: true,
        state_subdir: None,
        durable: false,
    },
    ZoneRow {
        zone: Zone::Env,
        name: ".env",
        path: "/.env",
        holds: "is maintained by the environment (run history, file versions, checkpoints)",
        agent_writable: false,
        served: false,
        in_tree: false,
        state_subdir: Some("dotenv"),
        durable: true,
    },
];

impl Zone {
    /// Every zone, in table order.
    pub const ALL: [Zone; 4] = [Zone::Tmp, Zone::Std, Zone::Skills, Zone::Env];

    /// Its row in [`ZONES`].
    pub fn row(self) -> &'static ZoneRow {
        &ZONES[self as usize]
    }

    /// The mount point (`/tmp`).
    pub fn path(self) -> &'static str {
        self.row().path
    }

    /// The top-level name (`tmp`).
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// What it holds (see [`ZoneRow::holds`]).
    pub fn holds(self) -> &'static str {
        self.row().holds
    }

    /// True when the agent may change it.
    pub fn agent_writable(self) -> bool {
        self.row().agent_writable
    }

    /// True when its files may be served to the webview.
    pub fn served(self) -> bool {
        self.row().served
    }

    /// True when the person's tree lists it.
    pub fn in_tree(self) -> bool {
        self.row().in_tree
    }

    /// The mount point as a path.
    pub fn root(self) -> Result<VPath, folio_vfs::PathError> {
        VPath::parse(self.path())
    }

    /// True for the zone's root and everything below it.
    pub fn contains(self, path: &VPath) -> bool {
        let (p, root) = (path.as_str(), self.path());
        p == root || p.strip_prefix(root).is_some_and(|rest| rest.starts_with('/'))
    }

    /// The zone `path` lies in, if any.
    pub fn of(path: &VPath) -> Option<Zone> {
        Zone::ALL.into_iter().find(|z| z.contains(path))
    }

    /// The zone whose root is exactly `path`.
    pub fn at(path: &VPath) -> Option<Zone> {
        Zone::ALL.into_iter().find(|z| z.path() == path.as_str())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn check(path: &str, expect: Option<Zone>) {
        assert_eq!(Zone::of(&VPath::parse(path).unwrap()), expect, "{path}");
    }

    #[test]
    fn paths_fall_in_their_zone_and_nowhere_else() {
        let cases = [
            ("/tmp", Some(Zone::Tmp)),
            ("/tmp/run-1.out", Some(Zone::Tmp)),
            ("/std/fs/index.d.ts", Some(Zone::Std)),
            ("/skills/README.md", Some(Zone::Skills)),
            ("/.env", Some(Zone::Env)),
            ("/.env/history.jsonl", Some(Zone::Env)),
            ("/tmpfile", None),
            ("/.envy", None),
            ("/out/tmp/x", None),
            ("/", None),
        ];
        for (path, expect) in cases {
            check(path, expect);
        }
    }

    #[test]
    fn the_table_says_who_may_write_see_and_serve_each_zone() {
        let rows: Vec<(&str, bool, bool, bool)> =
            ZONES.iter().map(|r| (r.path, r.agent_writable, r.served, r.in_tree)).collect();
        assert_eq!(
            rows,
            [
                ("/tmp", true, true, true),
                ("/std", false, true, true),
                ("/skills", false, true, true),
                ("/.env", false, false, false),
            ]
        );
        for (i, row) in ZONES.iter().enumerate() {
            assert_eq!(row.zone as usize, i, "{:?} is out of order in ZONES", row.zone);
            assert_eq!(row.path, format!("/{}", row.name));
            assert_eq!(Zone::at(&row.zone.root().unwrap()), Some(row.zone));
            // A zone the webview may not be served is never listed in the person's tree either.
            assert!(row.served || !row.in_tree, "{}", row.path);
        }
    }
}
