import { useRef, useState } from 'react';
import { Button, Cascader, Input, Tag, Tooltip, type InputRef } from 'antd';
import { FilterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { addTag, searchTag, SEARCH_KEY, type FilterOption } from './searchTags.ts';
import type { FilterTag } from './types.ts';
import styles from './resource.module.css';

export interface SearchTagsProps {
  options: FilterOption[];
  tags: FilterTag[];
  onChange(tags: FilterTag[]): void;
}

/** The search box: closable filter tags, a field/value cascader and a free-text input. */
export function SearchTags({ options, tags, onChange }: SearchTagsProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [field, setField] = useState<FilterOption>();
  const input = useRef<InputRef>(null);

  const commit = () => {
    const tag = field ? { key: field.value, label: field.label, value: text, valueLabel: text } : searchTag(text);
    const next = addTag(tags, tag);
    setText('');
    setField(undefined);
    if (next.length !== tags.length || next.some((x, i) => x !== tags[i])) onChange(next);
  };

  const pick = (path: (string | number)[]) => {
    const option = options.find((o) => o.value === path[0]);
    if (!option) return;
    const child = option.children?.find((c) => c.value === path[1]);
    if (child)
      onChange(addTag(tags, { key: option.value, label: option.label, value: child.value, valueLabel: child.label }));
    else {
      setField(option);
      setTimeout(() => input.current?.focus(), 0);
    }
  };

  const edit = (tag: FilterTag) => {
    onChange(tags.filter((x) => x !== tag));
    setField(tag.key === SEARCH_KEY ? undefined : options.find((o) => o.value === tag.key));
    setText(tag.value);
    setTimeout(() => input.current?.focus(), 0);
  };

  return (
    <div className={styles.searchBox} data-testid="search-tags">
      {options.length > 0 && (
        <Cascader options={options} value={[]} onChange={(v) => pick(v as (string | number)[])} expandTrigger="hover">
          <Tooltip title={t('resource.search.filterBy')}>
            <Button
              type="text"
              size="small"
              icon={<FilterOutlined />}
              aria-label={t('resource.search.filterBy')}
              data-testid="search-field-picker"
            />
          </Tooltip>
        </Cascader>
      )}
      {tags.map((tag) => (
        <Tag
          key={`${tag.key}:${tag.value}`}
          closable
          onClose={(e) => {
            e.preventDefault();
            onChange(tags.filter((x) => x !== tag));
          }}
          onClick={() => edit(tag)}
          className={styles.searchTag}
        >
          {tag.key === SEARCH_KEY ? tag.valueLabel : `${tag.label}: ${tag.valueLabel}`}
        </Tag>
      ))}
      <Input
        ref={input}
        variant="borderless"
        size="small"
        className={styles.searchInput}
        prefix={<span className={styles.searchField}>{field ? `${field.label}:` : ''}</span>}
        placeholder={field ? undefined : t('resource.search.placeholder')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onPressEnter={commit}
        onKeyDown={(e) => {
          if (e.key === 'Backspace' && !text && field) setField(undefined);
        }}
        aria-label={t('resource.search.placeholder')}
        data-testid="search-input"
      />
    </div>
  );
}
