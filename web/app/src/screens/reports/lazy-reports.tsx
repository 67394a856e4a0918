// The Reports screen is loaded when first opened, so its chart library never weighs on the app's
// first load (docs/app.md, "Reports").
import { useResource } from '../../use-resource.js';
import { ErrorState, Loading } from '../../ui/page.js';

export function LazyReports() {
  const screen = useResource(() => import('./reports.js'), []);
  if (screen.error) return <div class="page"><ErrorState error={screen.error} retry={() => void screen.reload()} /></div>;
  if (!screen.data) return <div class="page"><Loading /></div>;
  return <screen.data.Reports />;
}
