import { useEffect } from 'preact/hooks';
import { optionsPlaceIn, type OptionsPlace } from '@/lib/sidepanel/options-place';

/**
 * Brings the person to the setting that the page's address names after `#` (a notice in the side
 * panel sent them here to change it), once the settings are shown, and again at each place asked
 * for while the page stays open.
 */
export function usePlaceInAddress(shown: boolean): void {
  useEffect(() => {
    if (!shown) return;
    const goToPlace = () => {
      const place = optionsPlaceIn(location.hash);
      if (!place) return;
      // Taken out of the address, so that the same place asked for again is a change the page hears.
      history.replaceState(null, '', location.pathname + location.search);
      focusPlace(place);
    };
    goToPlace();
    window.addEventListener('hashchange', goToPlace);
    return () => window.removeEventListener('hashchange', goToPlace);
  }, [shown]);
}

/**
 * Where to go instead where the place is not on the page as it is: a server's models are listed
 * once it is connected, and each engine's fields show only while it is the one chosen.
 */
const nearest: Partial<Record<OptionsPlace, readonly OptionsPlace[]>> = { model: ['server-address'] };

function focusPlace(place: OptionsPlace): void {
  for (const candidate of [place, ...(nearest[place] ?? []), 'engine']) {
    // A field that cannot be changed (the model list where WebLLM cannot run) takes no focus: the next place does.
    const marked = `[data-place="${candidate}"]:not(:disabled)`;
    // Of radios, the one chosen.
    const target = document.querySelector<HTMLElement>(`${marked}:checked`) ?? document.querySelector<HTMLElement>(marked);
    if (!target) continue;
    target.scrollIntoView({ block: 'center' });
    target.focus();
    return;
  }
}
