// A short message in a live region, so a person sees (and a screen reader hears) what just happened,
// whether they clicked or an agent called a tool.
let hideTimer = 0;

export function announce(message) {
  const region = document.getElementById('notice');
  if (!region) return;
  region.textContent = message;
  region.classList.add('visible');
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => region.classList.remove('visible'), 4000);
}
