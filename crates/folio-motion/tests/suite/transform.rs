//! The scene's sources as the page gets them, data-driven: `check(files, scene, expect)`.

use folio_motion::transform::{resolve, walk};

fn check(files: &[(&str, &str)], scene: &str, expect: Result<&[&str], &str>) {
    let read = |p: &str| files.iter().find(|(n, _)| *n == p).map(|(_, t)| t.to_string());
    match (walk(scene, &read), expect) {
        (Ok(g), Ok(modules)) => {
            let got: Vec<&str> = g.modules.keys().map(String::as_str).collect();
            assert_eq!(got, modules, "{scene}");
            for m in g.modules.values() {
                assert!(!m.code.contains("<div"), "JSX left in {}", m.code);
                assert!(!m.code.contains(": number"), "a type left in {}", m.code);
            }
        }
        (Err(e), Err(needle)) => assert!(e.to_string().contains(needle), "{scene}: {needle:?} not in {e}"),
        (got, want) => panic!("{scene}: got {got:?}, wanted {want:?}"),
    }
}

#[test]
fn graphs() {
    let scene = "import { theme } from './theme';\nimport data from './data.json';\nimport Box from './parts/Box';\nexport default () => <div>{theme.x}</div>;\n";
    let files = [
        ("/s/a.jsx", scene),
        ("/s/theme.ts", "export const theme: { x: number } = { x: 1 };\n"),
        ("/s/data.json", "{\"a\": 1}"),
        ("/s/parts/Box.web.tsx", "export default function Box(p: { n: number }) { return <div>{p.n}</div>; }\n"),
        ("/s/parts/Box.tsx", "export default 1;\n"),
    ];
    // .web.* wins, JSON is served (not walked), types and JSX are gone.
    check(&files, "/s/a.jsx", Ok(&["/s/a.jsx", "/s/parts/Box.web.tsx", "/s/theme.ts"]));
    check(
        &[("/s/b.jsx", "import x from '../../../etc/passwd';\nexport default () => x;\n")],
        "/s/b.jsx",
        Err("/s/b.jsx:1: imports '../../../etc/passwd', which is not in the tree"),
    );
    check(
        &[("/s/c.jsx", "import 'fs';\nexport default () => null;\n")],
        "/s/c.jsx",
        Err("imports 'fs', which scenes cannot use"),
    );
    check(&[("/s/d.tsx", "const a: number = ;\n")], "/s/d.tsx", Err("/s/d.tsx:1: syntax error"));
    check(
        &[(
            "/s/e.jsx",
            "import { useCurrentFrame } from 'remotion';\nimport { View } from 'react-native';\nexport default () => <View />;\n",
        )],
        "/s/e.jsx",
        Ok(&["/s/e.jsx"]),
    );
}

#[test]
fn resolution_never_climbs_above_the_root() {
    let exists = |p: &str| p == "/etc/x.js";
    assert_eq!(resolve("/a/b.js", "../../../../etc/x", &exists), Some("/etc/x.js".into()));
    assert_eq!(resolve("/a/b.js", "./c", &|_| false), None);
}
