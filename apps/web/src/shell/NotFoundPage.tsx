import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

/** The 404 page: unknown paths come here. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('shell.notFound')}
      data-testid="not-found"
      extra={
        <Link to="/">
          <Button type="primary">{t('shell.backHome')}</Button>
        </Link>
      }
    />
  );
}
