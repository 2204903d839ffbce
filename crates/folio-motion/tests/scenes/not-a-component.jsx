// A scene with no default export: the mount fails with "…must default-export a React component…".
export function Scene() {
  return <div>forgot the default</div>;
}
