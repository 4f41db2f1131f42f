import '@/assets/theme.css';
import './style.css';
import { render } from 'preact';
import { OptionsModel } from '@/components/options/options-model';
import { OptionsPage } from '@/components/options/options-page';

const model = new OptionsModel();
render(<OptionsPage model={model} />, document.getElementById('app')!);
// A first request in the side panel downloads a model, and a server may gain or lose one: coming back here shows it.
window.addEventListener('focus', () => {
  void model.refreshStorage();
  void model.refreshServer();
});
