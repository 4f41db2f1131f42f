import '@/assets/theme.css';
import './style.css';
import { render } from 'preact';
import { OptionsModel } from '@/components/options/options-model';
import { OptionsPage } from '@/components/options/options-page';

const model = new OptionsModel();
render(<OptionsPage model={model} />, document.getElementById('app')!);
// A first request in the side panel downloads a model: coming back here shows it.
window.addEventListener('focus', () => void model.refreshStorage());
