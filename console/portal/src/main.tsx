import { render } from 'preact';
import { PortalApp } from './portal-app';
import '../../src/styles.css';

render(<PortalApp />, document.getElementById('app')!);
