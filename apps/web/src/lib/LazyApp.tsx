import { lazy, Suspense, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import AppContext, { type useAppProps } from 'antd/es/app/context';
import useAppStyle from 'antd/es/app/style';
import { useComponentConfig } from 'antd/es/config-provider/context';

/**
 * antd's `App` (the `ant-app` root with its font and colour, and `App.useApp()`'s message,
 * notification and modal) without their code in the first load: the three are loaded the first time
 * one of them is called (`FeedbackHolder.tsx`), then kept mounted. Calls made while they load run
 * once they are there. `App.useApp()` and `useFeedback()` read the same context.
 */
const FeedbackHolder = lazy(() => import('./FeedbackHolder.tsx'));

type Kind = keyof useAppProps;

export function LazyApp({ children }: { children: ReactNode }) {
  const { getPrefixCls } = useComponentConfig('app');
  const prefixCls = getPrefixCls('app');
  const [hashId, cssVarCls] = useAppStyle(prefixCls);
  const [wanted, setWanted] = useState(false);
  const ready = useRef<{ promise: Promise<useAppProps>; resolve: (apis: useAppProps) => void } | undefined>(undefined);

  const apis = useCallback((): Promise<useAppProps> => {
    if (!ready.current) {
      let resolve!: (apis: useAppProps) => void;
      const promise = new Promise<useAppProps>((r) => (resolve = r));
      ready.current = { promise, resolve };
      setWanted(true);
    }
    return ready.current.promise;
  }, []);

  const value = useMemo(() => {
    const deferred = (kind: Kind) =>
      new Proxy(
        {},
        {
          get:
            (_target, method) =>
            (...args: unknown[]) =>
              void apis().then((a) =>
                (a[kind] as unknown as Record<PropertyKey, (...x: unknown[]) => unknown>)[method]!(...args),
              ),
        },
      );
    return {
      message: deferred('message'),
      notification: deferred('notification'),
      modal: deferred('modal'),
    } as unknown as useAppProps;
  }, [apis]);

  return (
    <AppContext.Provider value={value}>
      <div className={[hashId, prefixCls, cssVarCls].filter(Boolean).join(' ')}>
        {wanted && (
          <Suspense fallback={null}>
            <FeedbackHolder onReady={(a) => ready.current?.resolve(a)} />
          </Suspense>
        )}
        {children}
      </div>
    </AppContext.Provider>
  );
}

/** message, notification and modal of the page (antd's `App.useApp()`, without importing antd's App). */
export function useFeedback(): useAppProps {
  return useContext(AppContext);
}
