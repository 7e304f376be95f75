// The one root layout around every page (spec §2).
import { useEffect, useState } from 'preact/hooks';
import { Route, Router, useLocation } from 'preact-iso/router';
import { LL } from '../i18n/translate.ts';
import { PAGES, pageOf } from '../pages.ts';
import { movingTo } from '../router/hash.tsx';
import { NotFoundPage, PAGE_COMPONENTS } from '../router/routes.tsx';
import { loaded } from '../state/sections.ts';
import { lazyModule } from './lazy-module.ts';
import { Menu } from './menu.tsx';
import { PageBar } from './page-bar.tsx';
import { TopBar } from './top-bar.tsx';

/** The help panel's code, loaded when help is first opened (the first page does not carry it). */
const helpModule = lazyModule(() => import('./help.tsx'), 'the help panel');
const helpPanel = helpModule.loaded;

export function Layout() {
  const { path } = useLocation();
  const page = pageOf(path);
  const [menuOpen, setMenuOpen] = useState(false);
  const [help, setHelp] = useState(false);
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const on = () => setScrolled(scrollY > 300);
    addEventListener('scroll', on, { passive: true });
    return () => removeEventListener('scroll', on);
  }, []);
  const t = LL.value.shell;
  return (
    <div class={`shell ${menuOpen ? 'menu-open' : ''}`}>
      <button type="button" class="skip" onClick={() => document.getElementById('main')?.focus()}>
        {t.skip()}
      </button>
      <TopBar
        menuOpen={menuOpen}
        onMenu={() => setMenuOpen(!menuOpen)}
        helpOpen={help}
        onHelp={() => {
          helpModule.load();
          setHelp(!help);
        }}
      />
      <div class="body">
        <div id="menu" class="menu-wrap">
          <Menu onPick={() => setMenuOpen(false)} />
        </div>
        <main id="main" tabIndex={-1} aria-labelledby="page-title" aria-busy={movingTo.value !== null ? true : undefined}>
          <PageBar page={page} />
          {help && helpPanel.value && <helpPanel.value.Help page={page} onClose={() => setHelp(false)} />}
          {page && page.sections.length > 0 && !loaded.value ? (
            <p class="loading" role="status">
              {LL.value.shell.loading()}
            </p>
          ) : (
            <Router>
              {[
                <Route key="/" path="/" component={PAGE_COMPONENTS.info} />,
                ...PAGES.map((p) => <Route key={p.path} path={p.path} component={PAGE_COMPONENTS[p.id]} />),
                <Route key="default" default component={NotFoundPage} />,
              ]}
            </Router>
          )}
        </main>
      </div>
      {scrolled && (
        <button type="button" class="btn top-btn" onClick={() => scrollTo({ top: 0, behavior: 'smooth' })} data-action="top">
          ↑<span class="sr">{t.top()}</span>
        </button>
      )}
    </div>
  );
}
