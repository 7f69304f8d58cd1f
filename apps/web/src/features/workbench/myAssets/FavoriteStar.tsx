import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Tooltip } from 'antd';
import { StarFilled, StarOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { http } from '../../../lib/http.ts';
import { useAction } from '../../../resource/useAction.ts';

const URL = '/api/v1/assets/favorite-assets/';
export const FAVORITES_KEY = ['favorite-assets'];

/** The user's favourite asset ids (one request for the whole table). */
export function useFavorites() {
  return useQuery({
    queryKey: FAVORITES_KEY,
    queryFn: async () => new Set((await http.get<{ asset: string }[]>(URL)).map((f) => f.asset)),
  });
}

/** The favourite star of a granted asset: on adds it, off removes it; `onChange` runs after either. */
export function FavoriteStar({ assetId, on, onChange }: { assetId: string; on: boolean; onChange?(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { run, busy } = useAction();
  const label = t(on ? 'workbench.assets.unfavorite' : 'workbench.assets.favorite');
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        size="small"
        aria-label={label}
        loading={busy}
        icon={on ? <StarFilled style={{ color: '#faad14' }} /> : <StarOutlined />}
        onClick={() =>
          void run(async () => {
            if (on) await http.delete(URL, { params: { asset: assetId } });
            else await http.post(URL, { asset: assetId });
            await queryClient.invalidateQueries({ queryKey: FAVORITES_KEY });
            onChange?.();
          })
        }
      />
    </Tooltip>
  );
}
