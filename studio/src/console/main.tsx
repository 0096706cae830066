/** The console's entry. */
import { render } from 'preact';
import { App } from './App.tsx';
import '../app/styles.css';
import './console.css';

render(<App />, document.getElementById('app') ?? document.body);
