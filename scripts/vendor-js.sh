#!/usr/bin/env bash
# Regenerates the pure-JavaScript libraries Folio vendors:
#   - crates/folio-script/vendor/: fflate (copied as published);
#   - crates/folio-motion/vendor/: React + react-dom, react-native-web, react-native-reanimated
#     (web build) and the react-native-worklets Babel plugin, bundled for the scene page by a
#     pinned esbuild, plus @babel/standalone 7 (copied as published). See the motion section below.
#
# Each library is pinned by version and by the sha512 integrity npm publishes for its tarball
# (`npm view <pkg>@<version> dist.integrity`). The script packs the pinned version from the npm
# registry into a temporary directory, refuses to continue when the tarball's digest differs from
# the pinned one, and copies the ESM build, its type declarations and its licence. To move to a new
# version, change both pins together and rerun; review the diff of the vendored file before
# committing it.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"

FFLATE_VERSION="0.8.3"
FFLATE_INTEGRITY="sha512-tbZNuJrLwGUp3zshBtdy4W+ORxZuIh8a5ilyIEQDC5rY1f3U20JMry0Ll3WBzU58EZKsEuJFXhb5gwv8CsPvgA=="

command -v npm >/dev/null 2>&1 || { echo "vendor-js: npm is missing — hint: apt-get install npm (or install Node.js 18+)" >&2; exit 1; }
command -v openssl >/dev/null 2>&1 || { echo "vendor-js: openssl is missing — hint: apt-get install openssl" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# fetch <package> <version> <integrity>: packs the tarball into $work and checks its digest.
fetch() {
  local pkg="$1" version="$2" integrity="$3" tarball actual
  tarball="$(cd "$work" && npm pack --silent "$pkg@$version" | tail -n 1)"
  actual="sha512-$(openssl dgst -sha512 -binary "$work/$tarball" | openssl base64 -A)"
  if [ "$actual" != "$integrity" ]; then
    echo "vendor-js: $pkg@$version has integrity $actual, but the script pins $integrity — hint: if the new version is intended, update the pin from 'npm view $pkg@$version dist.integrity'" >&2
    exit 1
  fi
  mkdir -p "$work/$pkg"
  tar -xzf "$work/$tarball" -C "$work/$pkg"
}

fetch fflate "$FFLATE_VERSION" "$FFLATE_INTEGRITY"
dest="$root/crates/folio-script/vendor/fflate"
mkdir -p "$dest"
cp "$work/fflate/package/esm/browser.js" "$dest/browser.js"
cp "$work/fflate/package/esm/browser.d.ts" "$dest/browser.d.ts"
cp "$work/fflate/package/LICENSE" "$dest/LICENSE"
printf '%s\n' "$FFLATE_VERSION" > "$dest/VERSION"
echo "vendor-js: fflate $FFLATE_VERSION -> ${dest#"$root"/}"

# ---- folio-motion: the scene page's libraries ------------------------------------------------
# Every package whose code lands in a bundle is pinned here by version and tarball integrity and
# checked by fetch(); they are laid out as a flat node_modules/ that only esbuild reads. esbuild
# itself is a vendor-time tool (pinned the same way, with its platform binary); nothing of it is
# needed at run time or in tests. Outputs are production builds, minified, each package's licence
# is kept as vendor/<package>/LICENSE, and vendor/VERSIONS lists what went in.
#
# One React in the page: react, react/jsx-runtime, react-dom and react-dom/client come from one
# bundle (react/react-bundle.js); the four specifier files are re-export shims whose export names
# are read from the packages at vendor time. react-native-web and Reanimated import those bare
# names, which the page's import map (crates/folio-motion/js/importmap.json) resolves.
MOTION_PACKAGES=(
  "react 19.3.1 sha512-QNhWdt7nrgVWWQG58QuGsAR3jv3Hbe4mb4vz7w2csnHavciZJgda1CPNaldF6eVxv90ud3jUXpKlHL69gO38yw=="
  "react-dom 19.3.1 sha512-Y0bARz53lhEC1NMCASs0/j+faB/zqt3R8hpvg1e8+61ZVJ4UL0UdC4cBbXfZMcIuhrfgeILTLe+ZeBCavQPtKQ=="
  "scheduler 0.28.0 sha512-juorfCmIkIw8tT+p5BXSm6PJjQF/ycEYmKyzURCIt/RaZIhL+PulbQ9Yu2z1HdOJDdqDTlxA1+xKBmHXJsczAw=="
  "react-native-web 0.21.4 sha512-77B6KlalB4osNIck91TNFixPkYPsTbuNEvw8P7IV+4v4/5wZSBRKZnw0Zhx6YjuauDTz71gc8IW+fVhcBMjr5A=="
  "@babel/runtime 7.29.16 sha512-LKBjGopxrQE0aFucNL69OyyyF143MOWUULEOftU3oCgyD35Sy84UUpVnt/sNvTb7ZmCyALSt7om+fojlW35zYQ=="
  "@react-native/normalize-colors 0.74.89 sha512-qoMMXddVKVhZ8PA1AbUCk83trpd6N+1nF2A6k1i6LsQObyS92fELuk8kU/lQs6M7BsMHwqyLCpQJ1uFgNvIQXg=="
  "css-in-js-utils 3.1.0 sha512-fJAcud6B3rRu+KHYk+Bwf+WFL2MDCJJ1XG9x137tJQ0xYxor7XziQtuGFbWNdqrvF4Tk26O3H73nfVqXt/fW1A=="
  "fbjs 3.0.5 sha512-ztsSx77JBtkuMrEypfhgc3cI0+0h+svqeie7xHbh1k/IKdcydnvadp/mUaGgjAOXQmQSxsqgaRhS3q9fy+1kxg=="
  "hyphenate-style-name 1.1.0 sha512-WDC/ui2VVRrz3jOVi+XtjqkDjiVjTtFaAGiW37k6b+ohyQ5wYDOGkvCZa8+H0nx3gyvv0+BST9xuOgIyGQ00gw=="
  "inline-style-prefixer 7.0.1 sha512-lhYo5qNTQp3EvSSp3sRvXMbVQTLrvGV6DycRMJ5dm2BLMiJ30wpXKdDdgX+GmJZ5uQMucwRKHamXSst3Sj/Giw=="
  "memoize-one 6.0.0 sha512-rkpe71W0N0c0Xz6QD0eJETuWAJGnJ9afsl1srmwPrI+yBCkge5EycXXbYRyvL29zZVUWQCY7InPRCv3GDXuZNw=="
  "nullthrows 1.1.1 sha512-2vPPEi+Z7WqML2jZYddDIfy5Dqb0r2fze2zTxNNknZaFpVHU3mFB3R+DWeJWGVx0ecvttSGlJTI+WG+8Z4cDWw=="
  "postcss-value-parser 4.2.0 sha512-1NNCs6uurfkVbeXG4S8JFT9t19m45ICnif8zWLd5oPSZ50QnwMfK+H3jv408d4jw/7Bttv5axS5IiHoLaVNHeQ=="
  "styleq 0.1.3 sha512-3ZUifmCDCQanjeej1f6kyl/BeP/Vae5EYkQ9iJfUm/QwZvlgnZzyflqAsAWYURdtea8Vkvswu2GrC57h3qffcA=="
  "react-native-reanimated 4.8.0 sha512-emcLwcnEl6Xwg2op8VPyONeZm75Y5FD2sPaOJtF7EbGn/IJVbas0Yq4VQRsl1tZgo9oI9qeqIkPzU9gAgAGQFQ=="
  "react-native-is-edge-to-edge 1.3.1 sha512-NIXU/iT5+ORyCc7p0z2nnlkouYKX425vuU1OEm6bMMtWWR9yvb+Xg5AZmImTKoF9abxCPqrKC3rOZsKzUYgYZA=="
  "react-native-worklets 0.14.0 sha512-FAMNVHF8ClJmC61V+2jDOCUDjaZPnda+PBK5QqMkGtn13D3itDkkJxrFb0pCSnIfRTuIS/muE338usqEcRbuSg=="
  # MIT-licensed packages scenes import as they are (Remotion's own MIT packages, and zod).
  "zod 4.6.7 sha512-g8W2D2kU6a8untc053fX1uVBKzM7yqAxW/3zwk83+6RyF2+SKOuV+c0wBDhUwzV1PaGapmZH+rmcUzPf+3CGwg=="
  "@remotion/paths 4.0.527 sha512-ZoEjkISdBxn+oBrKgWEBsNEzFD4/kWrva3mENs0W2mOPnmnGDG4hBuvZRZQrUn/6Z2wVSEJRirSBdL525OzKXA=="
  "@remotion/shapes 4.0.527 sha512-KNkTpsIJVU8B8pKelbM8YflJV7HyIwmYRnY/76NdGDpSmIiw33/UQqR4d8pZF7ugdGoAdjorUAancL1k1knL7w=="
  "@remotion/noise 4.0.527 sha512-fQ/09r1STdPXn8PDKOYDYu8mpEGV3sKcGTnviTynB+VDNlmeZV2yxY4o79YIx8V8seVrTXWyag7Do9IcFMjF4Q=="
  "simplex-noise 4.0.1 sha512-zl/+bdSqW7HJOQ0oDbxrNYaF4F5ik0i7M6YOYmEoIJNtg16NpvWaTTM1Y7oV/7T0jFljawLgYPS81Uu2rsfo1A=="
  "react-native-svg 15.16.1 sha512-Y4hCfg0o9ovGJYnNIySph5xWGqzawhW7MB2AjMUTpqJkrtPAx5XCeSk+jRMux2hanUvi9KvdVf2aZu0OFWtjgw=="
  "@react-native/assets-registry 0.87.1 sha512-XmE1I4YM61ariwFMm9gAd5FnqztP89qDx1WVKJMQTxI/g+V8riuwJts33hsFkR0lC0Mj8oc+V4L/AXk3F9XseA=="
  # Babel 7, not 8: the worklets plugin asserts Babel 7 (api.assertVersion(7)).
  "@babel/standalone 7.29.13 sha512-N8oXikyXZJfWWQoO26w+KLheK1P4itiJx15C29FNWpYsxYhbie2EyfZDvxZfBL+Gx+hInpGI0CO7y/pSh6hHkg=="
)
ESBUILD_VERSION="0.28.2"
ESBUILD_INTEGRITY="sha512-HKVLS8dvII+xoKW9kmqxbRKrnWEXfJJr/FZhhJmiqIB0e053QNYFqOBouTMO/k5sID4MvCiUCvv8b9M4h32wIA=="
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) ESBUILD_PLATFORM="linux-x64"; ESBUILD_PLATFORM_INTEGRITY="sha512-4xTZr1FUmSoQW4XIWmit3tzQrUTZM+N3P0XV8xROKYF50XfI7xeO90+1bZvNwxIufQ9hDQVRJH5YhgPVF8A/HQ==" ;;
  Linux-aarch64) ESBUILD_PLATFORM="linux-arm64"; ESBUILD_PLATFORM_INTEGRITY="sha512-pW4AC0P3it8c7do9MVM4p51FzHzdM/TZrerurgRcHJ2WTa1VQ1CIq18xncfpBJw4ojkiZZrKW2yIBWBP92j6Ug==" ;;
  Darwin-arm64) ESBUILD_PLATFORM="darwin-arm64"; ESBUILD_PLATFORM_INTEGRITY="sha512-n4KqkOQrraxHJcgjM1RvwbigfQKIKJVpM7xp+KsxiyUSrRdIXnt73VhrPAx0fV44hgfmIVKjxMN9J1t5jySVkw==" ;;
  Darwin-x86_64) ESBUILD_PLATFORM="darwin-x64"; ESBUILD_PLATFORM_INTEGRITY="sha512-uq6suIWYP37qzGddBKPw5QEQPi6HiLGsO7UmkpfyaYNQ3D+rN6w6WfwH+nuqcGXWvawGwxOEroO4YGnFh95azw==" ;;
  *) echo "vendor-js: no pinned esbuild binary for $(uname -s)-$(uname -m) — hint: run this script on Linux or macOS (x64 or arm64), or add the pin from 'npm view @esbuild/<platform>@$ESBUILD_VERSION dist.integrity'" >&2; exit 1 ;;
esac
command -v node >/dev/null 2>&1 || { echo "vendor-js: node is missing (needed at vendor time only, to run esbuild) — hint: apt-get install nodejs" >&2; exit 1; }

nm="$work/motion/node_modules"
# fetch_module <package> <version> <integrity>: fetch() and place the package at $nm/<package>.
fetch_module() {
  fetch "$1" "$2" "$3"
  mkdir -p "$(dirname "$nm/$1")"
  rm -rf "${nm:?}/$1"
  mv "$work/$1/package" "$nm/$1"
}
for entry in "${MOTION_PACKAGES[@]}"; do
  # shellcheck disable=SC2086
  fetch_module $entry
done
fetch_module esbuild "$ESBUILD_VERSION" "$ESBUILD_INTEGRITY"
fetch_module "@esbuild/$ESBUILD_PLATFORM" "$ESBUILD_VERSION" "$ESBUILD_PLATFORM_INTEGRITY"
export ESBUILD_BINARY_PATH="$nm/@esbuild/$ESBUILD_PLATFORM/bin/esbuild"
chmod +x "$ESBUILD_BINARY_PATH"

mdest="$root/crates/folio-motion/vendor"
rm -rf "$mdest"
mkdir -p "$mdest"
cat > "$work/motion/build.mjs" <<'EOF'
// Vendor-time bundling of the scene page's libraries. argv: <node_modules> <vendor dir>
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const [nm, out] = process.argv.slice(2);
const req = createRequire(path.join(nm, 'index.js'));
const esbuild = req('esbuild');
process.env.NODE_ENV = 'production';
const version = (p) => JSON.parse(fs.readFileSync(path.join(nm, p, 'package.json'), 'utf8')).version;
const banner = (pkgs) => `/* folio vendor (scripts/vendor-js.sh): ${pkgs.map((p) => `${p} ${version(p)}`).join(', ')}; licences in vendor/<package>/LICENSE */`;
const common = {
  bundle: true, minify: true, legalComments: 'none', platform: 'browser', target: 'es2022', charset: 'utf8',
  define: { 'process.env.NODE_ENV': '"production"', __DEV__: 'false', global: 'globalThis' },
  absWorkingDir: path.dirname(nm), nodePaths: [nm], logLevel: 'warning', metafile: true,
};
// react-native-web and Reanimated leave these to the import map, so the page has one of each.
const pageModules = ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/client', 'react-native', 'react-native-web'];
const bundled = new Set();
function note(result) {
  for (const f of Object.keys(result.metafile.inputs)) {
    const m = f.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
    if (m) bundled.add(m[1]);
  }
}
function check(file) {
  const text = fs.readFileSync(file, 'utf8');
  if (text.includes('Dynamic require of')) throw new Error(`${file}: a CommonJS require of an external module survived bundling`);
  return text.length;
}
const ident = (k) => /^[A-Za-z_$][\w$]*$/.test(k) && k !== 'default';

// 1. React: one bundle with the four module objects, and a thin shim per specifier.
const reactSpecs = [['react', 'react.js'], ['react/jsx-runtime', 'jsx-runtime.js'], ['react-dom', 'react-dom.js'], ['react-dom/client', 'react-dom-client.js']];
fs.mkdirSync(path.join(out, 'react'), { recursive: true });
note(await esbuild.build({
  ...common, format: 'esm', outfile: path.join(out, 'react/react-bundle.js'), banner: { js: banner(['react', 'react-dom', 'scheduler']) },
  stdin: { contents: reactSpecs.map(([s], i) => `export { default as M${i} } from ${JSON.stringify(s)};`).join('\n'), resolveDir: path.dirname(nm) },
}));
check(path.join(out, 'react/react-bundle.js'));
reactSpecs.forEach(([spec, file], i) => {
  const names = Object.keys(req(spec)).filter(ident).sort();
  if (names.length < 3) throw new Error(`${spec}: only ${names.length} exports found`);
  fs.writeFileSync(path.join(out, 'react', file),
    `// ${spec}: re-exports of the one React bundle (names read from ${spec} ${version(spec.split('/')[0])} at vendor time)\n` +
    `import{M${i} as m}from"./react-bundle.js";export default m;export const{${names.join(',')}}=m;\n`);
});

// 2. react-native-web (ESM build).
fs.mkdirSync(path.join(out, 'react-native-web'), { recursive: true });
note(await esbuild.build({
  ...common, format: 'esm', external: pageModules, outfile: path.join(out, 'react-native-web/react-native-web.js'),
  banner: { js: banner(['react-native-web', 'fbjs', 'inline-style-prefixer', 'styleq', 'postcss-value-parser', 'memoize-one', 'nullthrows', '@react-native/normalize-colors', '@babel/runtime']) },
  entryPoints: [path.join(nm, 'react-native-web/dist/index.js')],
}));
check(path.join(out, 'react-native-web/react-native-web.js'));

// 3. Reanimated, web build: `.web.*` files first, React Native and worklets left out.
fs.mkdirSync(path.join(out, 'react-native-reanimated'), { recursive: true });
note(await esbuild.build({
  ...common, format: 'esm', external: [...pageModules, 'react-native-worklets'],
  resolveExtensions: ['.web.tsx', '.web.ts', '.web.jsx', '.web.js', '.tsx', '.ts', '.jsx', '.js', '.json'],
  outfile: path.join(out, 'react-native-reanimated/react-native-reanimated.js'),
  banner: { js: banner(['react-native-reanimated', 'react-native-is-edge-to-edge']) },
  entryPoints: [path.join(nm, 'react-native-reanimated/lib/module/index.js')],
}));
if (/from\s*"react-native-worklets"/.test(fs.readFileSync(path.join(out, 'react-native-reanimated/react-native-reanimated.js'), 'utf8'))) {
  throw new Error('the Reanimated web bundle imports react-native-worklets; the page has no such module');
}
check(path.join(out, 'react-native-reanimated/react-native-reanimated.js'));

// 4. The worklets Babel plugin for a browser page that loaded @babel/standalone 7 (global Babel):
// its Node imports become small shims over Babel's own packages, and require.resolve of a Babel
// plugin or preset name becomes a lookup in Babel.availablePlugins / availablePresets.
const shims = {
  '@babel/core': 'const B=globalThis.Babel;const r=(x)=>globalThis.__folioResolveBabel(x);' +
    'const fix=(o)=>({...o,plugins:(o.plugins||[]).map(r),presets:(o.presets||[]).map(r)});' +
    'module.exports={transformSync:(c,o)=>B.transform(c,fix(o)),transformFromAstSync:(a,c,o)=>B.transformFromAst(a,c,fix(o)),' +
    'traverse:B.packages.traverse.default,types:B.packages.types,template:B.packages.template.default,version:B.version};',
  '@babel/types': 'module.exports=globalThis.Babel.packages.types;',
  '@babel/traverse': 'const t=globalThis.Babel.packages.traverse;module.exports={...t,__esModule:true,default:t.default};',
  '@babel/generator': 'const g=globalThis.Babel.packages.generator;module.exports={...g,__esModule:true,default:g.default};',
  'assert': "function ok(v,m){if(!v)throw new Error(m||'worklets plugin: assertion failed')}ok.strict=ok;ok.ok=ok;module.exports=ok;",
  'path': "const n=(p)=>{const o=[];for(const s of p.split('/')){if(s==='..')o.pop();else if(s&&s!=='.')o.push(s)}return '/'+o.join('/')};" +
    "const dirname=(p)=>p.replace(/\\/[^/]*$/,'')||'/';const basename=(p,e)=>{let b=p.replace(/^.*\\//,'');if(e&&b.endsWith(e))b=b.slice(0,-e.length);return b};" +
    "const resolve=(...a)=>n(a.reduce((acc,s)=>s.startsWith('/')?s:acc+'/'+s,''));" +
    "const relative=(f,t)=>{const a=n(f).split('/').filter(Boolean),b=n(t).split('/').filter(Boolean);let i=0;while(i<a.length&&a[i]===b[i])i++;return [...a.slice(i).map(()=>'..'),...b.slice(i)].join('/')};" +
    "const extname=(p)=>{const m=/\\.[^./]*$/.exec(p);return m?m[0]:''};" +
    "module.exports={sep:'/',dirname,basename,resolve,relative,extname,join:(...a)=>n(a.join('/')),normalize:n,isAbsolute:(p)=>p.startsWith('/')};module.exports.posix=module.exports;",
  'fs': "module.exports={existsSync:()=>false,readFileSync(){throw new Error('worklets plugin: no file system in the page')},writeFileSync(){},mkdirSync(){}};",
  'child_process': "module.exports={execFileSync(){throw new Error('worklets plugin: no child processes in the page')},spawnSync(){return {status:1}}};",
  'convert-source-map': "module.exports={fromObject:()=>({toComment:()=>''}),fromSource:()=>null};",
};
fs.mkdirSync(path.join(out, 'react-native-worklets'), { recursive: true });
const pluginFile = path.join(nm, 'react-native-worklets/plugin/index.js');
note(await esbuild.build({
  ...common, format: 'iife', globalName: '__folioWorkletsPlugin',
  banner: { js: `${banner(['react-native-worklets'])}\nvar process={env:{NODE_ENV:"production"}};` },
  outfile: path.join(out, 'react-native-worklets/worklets-plugin.js'), entryPoints: [pluginFile],
  plugins: [{
    name: 'babel-in-page',
    setup(b) {
      b.onResolve({ filter: /^(@babel\/(core|types|traverse|generator)|assert|path|fs|child_process|convert-source-map)$/ }, (a) => ({ path: a.path, namespace: 'shim' }));
      b.onLoad({ filter: /.*/, namespace: 'shim' }, (a) => ({ contents: shims[a.path], loader: 'js' }));
      b.onLoad({ filter: /react-native-worklets[\\/]plugin[\\/]index\.js$/ }, (a) => ({
        contents: fs.readFileSync(a.path, 'utf8').replace(/\brequire\.resolve\(/g, 'globalThis.__folioResolveBabel('), loader: 'js',
      }));
    },
  }],
}));
const pluginText = fs.readFileSync(path.join(out, 'react-native-worklets/worklets-plugin.js'), 'utf8');
if (/\brequire\s*\(/.test(pluginText.replace(/__folioResolveBabel/g, ''))) throw new Error('the worklets plugin bundle still calls require()');

// 5. Packages scenes import by name, as published (MIT): zod; react-native-svg's web elements
// (Svg, Path, Circle, G, …, the .web.* files; its XML/CSS loaders are left out); @remotion/paths; @remotion/noise
// (its `random` is the page's `remotion`, whose sequence is Remotion's); and @remotion/shapes'
// make* path builders. The shapes' React components lean on Remotion's private Internals, so only
// the builders are taken (the page's js/remotion-shapes.js draws them as the documented
// components): 'remotion' resolves to a stub whose names the builders never call.
for (const [dir, file, entry, pkgs, external] of [
  ['zod', 'zod.js', "export * from 'zod'; export { default } from 'zod';", ['zod'], []],
  ['@remotion/paths', 'paths.js', "export * from '@remotion/paths';", ['@remotion/paths'], []],
  ['react-native-svg', 'react-native-svg.js', "export * from 'react-native-svg/lib/module/elements.web.js'; export { default } from 'react-native-svg/lib/module/elements.web.js';", ['react-native-svg', '@react-native/assets-registry'], []],
  ['@remotion/noise', 'noise.js', "export * from '@remotion/noise';", ['@remotion/noise', 'simplex-noise'], ['remotion']],
  ['@remotion/shapes', 'make.js', "export { makeArrow, makeCallout, makeCircle, makeEllipse, makeHeart, makePie, makePolygon, makeRect, makeSpark, makeStar, makeTriangle } from '@remotion/shapes';", ['@remotion/shapes'], ['@remotion/paths']],
]) {
  fs.mkdirSync(path.join(out, dir), { recursive: true });
  const outfile = path.join(out, dir, file);
  note(await esbuild.build({
    ...common, format: 'esm', external: [...pageModules, ...external], outfile, banner: { js: banner(pkgs) },
    resolveExtensions: ['.web.tsx', '.web.ts', '.web.jsx', '.web.js', '.tsx', '.ts', '.jsx', '.js', '.json'],
    stdin: { contents: entry, resolveDir: path.dirname(nm) },
    plugins: [{
      name: 'remotion-internals-stub',
      setup(b) {
        if (dir === 'react-native-svg') {
          // Its native-module specs import TurboModuleRegistry and AssetRegistry, which
          // react-native-web does not have; the web elements never call them.
          b.onResolve({ filter: /^react-native$/ }, (a) => (a.namespace === 'rn' ? { path: 'react-native', external: true } : { path: 'react-native', namespace: 'rn' }));
          b.onLoad({ filter: /.*/, namespace: 'rn' }, () => ({
            contents: "export * from 'react-native';const no=(n)=>{throw new Error('react-native-svg: '+n+' is a native module, which a web render does not have')};" +
              'export const TurboModuleRegistry={get:()=>null,getEnforcing:no};export const AssetRegistry={registerAsset:()=>0,getAssetByID:()=>undefined};',
            loader: 'js',
          }));
          return;
        }
        if (dir !== '@remotion/shapes') return;
        b.onResolve({ filter: /^remotion$/ }, () => ({ path: 'remotion', namespace: 'stub' }));
        b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export const Internals={},Interactive={withSchema:(c)=>c},HtmlInCanvas=null,Sequence=null;', loader: 'js' }));
      },
    }],
  }));
  check(outfile);
}

// 6. @babel/standalone, as published.
fs.mkdirSync(path.join(out, '@babel/standalone'), { recursive: true });
fs.copyFileSync(path.join(nm, '@babel/standalone/babel.min.js'), path.join(out, '@babel/standalone/babel.min.js'));
bundled.add('@babel/standalone');
bundled.delete('esbuild');
console.log([...bundled].sort().join('\n'));
EOF
node "$work/motion/build.mjs" "$nm" "$mdest" > "$work/motion/bundled.txt"

# Licences and VERSIONS: every pinned package must have landed in a bundle, and keeps its licence.
{
  echo "# crates/folio-motion/vendor — generated by scripts/vendor-js.sh; do not edit."
  echo "# package version integrity (npm tarball sha512), and the bundler that built the files"
} > "$mdest/VERSIONS"
for entry in "${MOTION_PACKAGES[@]}"; do
  read -r pkg version integrity <<< "$entry"
  if ! grep -qx "$pkg" "$work/motion/bundled.txt"; then
    echo "vendor-js: $pkg is pinned but no bundle uses it — hint: drop its pin, or check the bundle entry points in this script" >&2
    exit 1
  fi
  mkdir -p "$mdest/$pkg"
  lic="$(find "$nm/$pkg" -maxdepth 1 -type f -iname 'licen[cs]e*' | sort | head -n 1)"
  if [ -n "$lic" ]; then
    cp "$lic" "$mdest/$pkg/LICENSE"
  else
    # The package ships no licence file: keep its declared licence and its source's copyright header.
    main="$nm/$pkg/$(node -e 'process.stdout.write(require(process.argv[1]).main||"index.js")' "$nm/$pkg/package.json")"
    [ -f "$main" ] || main="$(find "$nm/$pkg" -maxdepth 1 -type f -name '*.js' | sort | head -n 1)"
    {
      echo "$pkg $version declares the licence \"$(node -e 'process.stdout.write(require(process.argv[1]).license||"")' "$nm/$pkg/package.json")\" in its package.json and ships no licence file."
      echo "The header of its source ($(basename "$main")):"
      sed -n '1,/\*\//p' "$main"
    } > "$mdest/$pkg/LICENSE"
  fi
  echo "$pkg $version $integrity" >> "$mdest/VERSIONS"
done
while read -r used; do
  printf '%s\n' "${MOTION_PACKAGES[@]}" | grep -q "^$used " || { echo "vendor-js: a bundle includes $used, which is not pinned — hint: pin it in MOTION_PACKAGES with 'npm view $used dist.integrity'" >&2; exit 1; }
done < "$work/motion/bundled.txt"
echo "esbuild $ESBUILD_VERSION $ESBUILD_INTEGRITY (vendor-time bundler; @esbuild/$ESBUILD_PLATFORM $ESBUILD_PLATFORM_INTEGRITY)" >> "$mdest/VERSIONS"
echo "vendor-js: folio-motion $(du -sh "$mdest" | cut -f1) -> ${mdest#"$root"/}"

# ---- folio-script: the document libraries scripts import by their npm names ---------------------
# exceljs, docx, pdf-lib, @pdf-lib/fontkit and pptxgenjs, each bundled by the pinned esbuild above
# into one self-contained ES module (crates/folio-script/vendor/<name>/index.js, with LICENSE and
# VERSION). The five are pinned here and checked by fetch(); everything they depend on is pinned by
# sha512 in crates/folio-script/vendor/npm/package-lock.json, which `npm ci` verifies. Node
# built-ins stay `node:*` imports that the sandbox answers (folio-script's node layer).
LIBRARY_PACKAGES=(
  "exceljs 4.4.0 sha512-XctvKaEMaj1Ii9oDOqbW/6e1gXknSY4g/aLCDicOXqBE4M0nRWkUu0PTp++UPNzoFY12BNHMfs/VadKIS6llvg=="
  "docx 9.15.2 sha512-G/R41dlYE5RS3TG2ybX1DIodQv+TchMspmdvrrovFyzTpvLZe0pLKVqiGosBhZszLkRonrK9+zxJDPWHDYx4NA=="
  "pdf-lib 1.17.1 sha512-V/mpyJAoTsN4cnP31vc0wfNA1+p20evqqnap0KLoRUN0Yk/p3wN52DOEsL4oBFcLdb76hlpKPtzJIgo67j/XLw=="
  "@pdf-lib/fontkit 1.1.1 sha512-KjMd7grNapIWS/Dm0gvfHEilSyAmeLvrEGVcqLGi0VYebuqqzTbgF29efCx7tvx+IEbG3zQciRSWl3GkUSvjZg=="
  "pptxgenjs 4.0.1 sha512-TeJISr8wouAuXw4C1F/mC33xbZs/FuEG6nH9FG1Zj+nuPcGMP5YRHl6X+j3HSUnS1f3at6k75ZZXPMZlA5Lj9A=="
)
lib="$work/libraries"
mkdir -p "$lib"
cp "$root/crates/folio-script/vendor/npm/package.json" "$root/crates/folio-script/vendor/npm/package-lock.json" "$lib/"
for entry in "${LIBRARY_PACKAGES[@]}"; do
  read -r pkg version integrity <<< "$entry"
  fetch "$pkg" "$version" "$integrity"
  locked="$(node -e 'const l=require(process.argv[1]).packages["node_modules/"+process.argv[2]]||{};process.stdout.write((l.version||"")+" "+(l.integrity||""))' "$lib/package-lock.json" "$pkg")"
  if [ "$locked" != "$version $integrity" ]; then
    echo "vendor-js: $pkg is pinned as $version $integrity here but the lockfile has '$locked' — hint: update crates/folio-script/vendor/npm/package.json and regenerate its lockfile with 'npm install --package-lock-only --ignore-scripts' in that directory" >&2
    exit 1
  fi
done
(cd "$lib" && npm ci --ignore-scripts --no-audit --no-fund --silent)
cat > "$lib/build.mjs" <<'EOF'
// Vendor-time bundling of folio-script's npm libraries. argv: <dir with node_modules> <vendor dir> <esbuild's node_modules>
// Each library becomes one self-contained ES module (esbuild --bundle --format=esm --platform=browser
// --minify). Node built-ins stay imports of `node:*`, which the sandbox answers (folio-script's
// node layer); the one-line entries give each library the export a README imports.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const [dir, out, esbuildModules] = process.argv.slice(2);
const esbuild = createRequire(path.join(esbuildModules, 'index.js'))('esbuild');
const nm = path.join(dir, 'node_modules');
const version = (p) => JSON.parse(fs.readFileSync(path.join(nm, p, 'package.json'), 'utf8')).version;

// name in the sandbox -> [package, entry source]
const LIBRARIES = {
  exceljs: ['exceljs', [
    "import fs from 'node:fs';",
    "import ExcelJS from 'exceljs';",
    "// The browser build has no file terminals; give xlsx and csv the Node ones over the sandbox's fs.",
    "const book = new ExcelJS.Workbook();",
    "const XLSX = Object.getPrototypeOf(book.xlsx), CSV = Object.getPrototypeOf(book.csv);",
    "const mustExist = (f) => { if (!fs.existsSync(f)) throw new Error(`File not found: ${f}`); };",
    "XLSX.writeFile = async function writeFile(filename, options) { fs.writeFileSync(filename, await this.writeBuffer(options)); };",
    "XLSX.readFile = async function readFile(filename, options) { mustExist(filename); return this.load(fs.readFileSync(filename), options); };",
    "CSV.writeFile = async function writeFile(filename, options) { fs.writeFileSync(filename, await this.writeBuffer(options)); };",
    "CSV.readFile = async function readFile(filename, options) { mustExist(filename); const text = fs.readFileSync(filename, (options && options.encoding) || 'utf8');",
    "  return this.read({ pipe(target) { target.end(text); return target; } }, options); };",
    "export default ExcelJS;",
  ]],
  docx: ['docx', ["export * from 'docx';"]],
  'pdf-lib': ['pdf-lib', ["export * from 'pdf-lib';"]],
  '@pdf-lib/fontkit': ['@pdf-lib/fontkit', ["import fontkit from '@pdf-lib/fontkit';", 'export default fontkit;']],
  pptxgenjs: ['pptxgenjs', ["import pptxgen from 'pptxgenjs';", 'export default pptxgen;']],
};

// pptxgenjs decides browser or Node by `process.release.name`; in the sandbox its Node path is the
// right one (media read with fs.readFileSync, writeFile through fs.promises), so that test is true.
const nodePath = {
  name: 'pptxgenjs-node-path',
  setup(b) {
    b.onLoad({ filter: /pptxgenjs[\\/]dist[\\/]pptxgen\.es\.js$/ }, (a) => {
      const text = fs.readFileSync(a.path, 'utf8');
      const re = /const isNode = typeof process !== 'undefined' &&[^;]*=== 'node';/g;
      const n = (text.match(re) || []).length;
      if (n !== 2) throw new Error(`pptxgenjs: expected 2 Node checks, found ${n}`);
      return { contents: text.replace(re, 'const isNode = true;'), loader: 'js' };
    });
  },
};

fs.mkdirSync(path.join(dir, 'entries'), { recursive: true });
for (const [name, [pkg, lines]] of Object.entries(LIBRARIES)) {
  const entry = path.join(dir, 'entries', name.replace('/', '__') + '.js');
  fs.writeFileSync(entry, lines.join('\n') + '\n');
  const dest = path.join(out, name);
  fs.mkdirSync(dest, { recursive: true });
  const outfile = path.join(dest, 'index.js');
  await esbuild.build({
    entryPoints: [entry], bundle: true, format: 'esm', platform: 'browser', minify: true,
    define: { 'process.env.NODE_ENV': '"production"' }, external: ['node:*'], legalComments: 'eof',
    outfile, logLevel: 'warning', absWorkingDir: dir, nodePaths: [nm], plugins: [nodePath],
    banner: { js: `/* folio vendor (scripts/vendor-js.sh): ${pkg} ${version(pkg)}; licence in LICENSE */` },
  });
  const text = fs.readFileSync(outfile, 'utf8');
  if (/\brequire\s*\(\s*["'][^"']+["']\s*\)/.test(text) && text.includes('Dynamic require of')) throw new Error(`${name}: a CommonJS require survived bundling`);
  const lic = fs.readdirSync(path.join(nm, pkg)).find((f) => /^licen[cs]e/i.test(f));
  if (lic) {
    fs.copyFileSync(path.join(nm, pkg, lic), path.join(dest, 'LICENSE'));
  } else {
    // @pdf-lib/fontkit ships none: keep the licence its package.json declares, and where it says it comes from.
    const meta = JSON.parse(fs.readFileSync(path.join(nm, pkg, 'package.json'), 'utf8'));
    if (!meta.license) throw new Error(`${pkg} ships no licence file and declares no licence`);
    const readme = fs.existsSync(path.join(nm, pkg, 'README.md')) ? fs.readFileSync(path.join(nm, pkg, 'README.md'), 'utf8').split('\n').slice(0, 3).join('\n') : '';
    fs.writeFileSync(path.join(dest, 'LICENSE'), `${pkg} ${meta.version} declares the licence "${meta.license}" in its package.json and ships no licence file.\nIts README begins:\n${readme}\nThe licence texts of the code bundled with it are kept at the end of index.js.\n`);
  }
  fs.writeFileSync(path.join(dest, 'VERSION'), version(pkg) + '\n');
  console.log(`${name} ${version(pkg)} ${(text.length / 1024).toFixed(0)} KB`);
}
EOF
sdest="$root/crates/folio-script/vendor"
rm -rf "$sdest/exceljs" "$sdest/docx" "$sdest/pdf-lib" "$sdest/@pdf-lib" "$sdest/pptxgenjs"
node "$lib/build.mjs" "$lib" "$sdest" "$nm"
