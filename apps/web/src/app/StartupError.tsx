import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** The startup sequence failed: the reason and a retry (loaded only then, see `StartupGate.tsx`). */
export function StartupError({ error, onRetry }: { error: string; onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="error"
      title={t('startup.failed', { message: error })}
      extra={<Button onClick={onRetry}>{t('startup.retry')}</Button>}
    />
  );
}
