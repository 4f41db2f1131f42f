import { render } from 'preact';

function App() {
  return <main><h1>WebMCP Agent</h1><p>Open a page that offers WebMCP tools.</p></main>;
}

render(<App />, document.getElementById('app')!);
