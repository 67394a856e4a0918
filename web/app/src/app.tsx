export function App() {
  return <main><h1>Loopdesk</h1></main>;
}
