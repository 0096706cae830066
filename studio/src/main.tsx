/** The studio's entry: the bridge first (so no host message is missed), then the shell. */
import { render } from 'preact';
import { App } from './app/App.tsx';
import './app/styles.css';

render(<App />, document.getElementById('app') ?? document.body);
