// A static scene: nothing moves, so a render of it yields exactly the "every frame is identical"
// warning.
export default function Still() {
  return (
    <div style={{ width: '100%', height: '100%', background: '#fef3c7', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <div style={{ fontFamily: 'serif', fontSize: 32, color: '#78350f' }}>Nothing moves</div>
    </div>
  );
}
