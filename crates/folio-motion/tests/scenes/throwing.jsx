// A scene that throws while rendering: the render must fail fast, naming this error and this file.
export default function Broken() {
  const data = undefined;
  if (!data) throw new Error('the chart data is missing (thrown by throwing.jsx)');
  return <div>{data.title}</div>;
}
