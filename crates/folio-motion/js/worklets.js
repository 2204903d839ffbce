// Runs in worklets.html before the plugin bundle. Defines how the bundled worklets plugin finds
// the Babel plugins and presets it asks for by package name, and window.__folioWorklets:
//
//   __folioWorklets(code, filename) -> code
//
// `code` is plain JavaScript (an ES module, JSX and TypeScript already removed by the host);
// the result is an ES module in which every worklet ('worklet' functions, useAnimatedStyle /
// useDerivedValue / … callbacks) carries its closure, so Reanimated's web build re-runs it when
// the shared values it reads change. A syntax or plugin error throws, with the filename.
(() => {
  'use strict';
  const B = window.Babel;
  if (!B || !/^7\./.test(B.version)) {
    throw new Error(`worklets.html needs @babel/standalone 7 (the worklets plugin asserts Babel 7); found ${B ? B.version : 'none'}`);
  }
  // '@babel/plugin-transform-arrow-functions' -> Babel.availablePlugins['transform-arrow-functions'].
  window.__folioResolveBabel = (item) => {
    if (Array.isArray(item)) return [window.__folioResolveBabel(item[0]), ...item.slice(1)];
    if (typeof item !== 'string') return item;
    if (item === 'react-native-worklets/package.json') return '/__folio/react-native-worklets/package.json';
    let m = /^@babel\/plugin-(.+)$/.exec(item);
    if (m && B.availablePlugins[m[1]]) return B.availablePlugins[m[1]];
    m = /^@babel\/preset-(.+)$/.exec(item);
    if (m && B.availablePresets[m[1]]) return B.availablePresets[m[1]];
    if (B.availablePlugins[item]) return B.availablePlugins[item];
    if (B.availablePresets[item]) return B.availablePresets[item];
    throw new Error(`worklets transform: no Babel plugin or preset named ${item} in @babel/standalone ${B.version}`);
  };
  window.__folioWorklets = (code, filename) => {
    const plugin = window.__folioWorkletsPlugin;
    if (!plugin) throw new Error('worklets transform: the worklets plugin bundle did not load (/__folio/react-native-worklets/worklets-plugin.js)');
    const fn = plugin.default || plugin;
    const out = B.transform(String(code), {
      filename: filename || '/scene.js',
      sourceType: 'module',
      babelrc: false,
      configFile: false,
      compact: false,
      retainLines: true,
      envName: 'production',
      plugins: [[fn, { disableSourceMaps: true, omitNativeOnlyData: true, disableInlineStylesWarning: true, silenceDangerousPathsWarning: true }]],
    });
    return out.code;
  };
})();
