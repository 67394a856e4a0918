// Who is signed in: GET /api/v1/me with the session cookie (a 401 means nobody), the workspace's
// products and members that every screen names things with, and sign-out.
import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { api, ok, onUnauthorized, type Schemas } from './api/client.js';

export type Role = Schemas['Member']['role'];

export interface Session {
  me: Schemas['Me'];
  products: Schemas['Product'][];
  members: Schemas['Member'][];
  /** Owners and admins see settings (docs/accounts.md); the server enforces it anyway. */
  canManageSettings: boolean;
  productName(id: string): string;
  memberName(id: string | null): string;
  reloadProducts(): Promise<void>;
  reloadMembers(): Promise<void>;
  signOut(): Promise<void>;
}

type State = { status: 'loading' } | { status: 'signed-out' } | { status: 'signed-in'; me: Schemas['Me'] } | { status: 'failed'; error: unknown };

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in shell');
  return session;
}

async function loadAll<T>(load: (offset: number) => Promise<{ data: T[]; pagination: Schemas['Pagination'] }>): Promise<T[]> {
  const first = await load(0);
  const all = [...first.data];
  while (all.length < first.pagination.total) {
    const page = await load(all.length);
    if (page.data.length === 0) break;
    all.push(...page.data);
  }
  return all;
}

const loadProducts = () => loadAll((offset) => ok(api.GET('/api/v1/products', { params: { query: { limit: 200, offset } } })));
const loadMembers = () => loadAll((offset) => ok(api.GET('/api/v1/members', { params: { query: { limit: 200, offset } } })));

export interface SessionGateProps {
  /** Drawn when nobody is signed in; calls `signedIn` once someone is. */
  signIn: (props: { signedIn: () => void }) => ComponentChildren;
  loading: ComponentChildren;
  failed: (error: unknown, retry: () => void) => ComponentChildren;
  children: ComponentChildren;
}

/** Draws `children` with a Session once someone is signed in, `signIn` otherwise. */
export function SessionGate({ signIn, loading, failed, children }: SessionGateProps) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [products, setProducts] = useState<Schemas['Product'][]>([]);
  const [members, setMembers] = useState<Schemas['Member'][]>([]);

  const start = useCallback(async () => {
    setState({ status: 'loading' });
    try {
      // Who first: signed out, that one 401 is the only request (not one per list). Then what
      // products and which people, in parallel.
      const me = await ok(api.GET('/api/v1/me'));
      const [productList, memberList] = await Promise.all([loadProducts(), loadMembers()]);
      setProducts(productList);
      setMembers(memberList);
      setState({ status: 'signed-in', me: me.data });
    } catch (error) {
      setState((error as { status?: number }).status === 401 ? { status: 'signed-out' } : { status: 'failed', error });
    }
  }, []);
  useEffect(() => {
    void start();
    return onUnauthorized(() => setState({ status: 'signed-out' }));
  }, [start]);

  const me = state.status === 'signed-in' ? state.me : null;
  const session = useMemo<Session | null>(() => {
    if (!me) return null;
    const role = me.member?.role;
    return {
      me, products, members,
      canManageSettings: role === 'owner' || role === 'admin',
      productName: (id) => products.find((product) => product.id === id)?.name ?? 'Unknown product',
      memberName: (id) => (id === null ? 'Unassigned' : (members.find((member) => member.id === id)?.display_name ?? 'Someone')),
      reloadProducts: async () => setProducts(await loadProducts()),
      reloadMembers: async () => setMembers(await loadMembers()),
      signOut: async () => {
        await api.POST('/auth/sign-out').catch(() => undefined);
        setState({ status: 'signed-out' });
      },
    };
  }, [me, products, members]);

  if (state.status === 'loading') return <>{loading}</>;
  if (state.status === 'failed') return <>{failed(state.error, () => void start())}</>;
  if (state.status === 'signed-out') return <>{signIn({ signedIn: () => void start() })}</>;
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
