// A sibling module of with-imports.jsx.
export const theme = { background: '#ecfeff', accent: '#0e7490', size: 48 };
