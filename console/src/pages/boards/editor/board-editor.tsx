import { Alert, Button, Grid, Modal, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import type { BoardContent } from '../../../../../src/shared/board-content';
import { parseMetrics, type MetricsData } from '../../../../../src/shared/metrics';
import { VARIANT_EXAMPLES } from '../../../../../src/shared/variant-examples';
import type { Variant } from '../../../../../src/shared/variants';
import { useCanWrite } from '../../../session/session';
import { ErrorAlert } from '../../../ui/error-panel';
import { LeaveGuard } from '../../../ui/leave-guard';
import BoardPreview from '../board-preview';
import { BoardSettings } from '../board-settings';
import { WidgetList } from '../widget-list';
import { formatData, parseData } from '../data-editor/data-problems';
import { AddWidget, type FlowChoice } from './add-widget';
import { starterCode } from './custom-starter';
import { flowKey } from './data-edits';
import { newKey, type DraftWidget } from './draft';
import { EditorToolbar } from './editor-toolbar';
import { LayoutCanvas } from './layout-canvas';
import { freeSpot, newWidgetSize } from './placement';
import { previewOf, tagOf as flowTagOf, useLayoutFlows } from './preview-board';
import { useBoardEditor } from './use-board-editor';
import { WidgetData } from './widget-data';
import { WidgetInspector } from './widget-inspector';

const NOTHING_TRIED: ReadonlyMap<string, MetricsData> = new Map();

/**
 * The board editor: the board drawn by the player's renderer as screens show it, with handles to
 * drag and resize its widgets on the grid; the selected widget's placement, look and data; the
 * board's settings. Layout, settings and data are one draft saved together, explicitly, against
 * the board as it was loaded: someone else's save in between is reported and never overwritten.
 */
export function BoardEditor({ content }: { content: BoardContent }) {
  const canWrite = useCanWrite();
  const editor = useBoardEditor(content);
  const [selected, setSelected] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  /**
   * What "Try it" of a widget's data source made, by tag: drawn by the preview, never saved. It
   * belongs to the draft it was tried in: a save, a discard or their version loaded drops it.
   */
  const [triedIn, setTried] = useState<{ draft: string | null; byTag: ReadonlyMap<string, MetricsData> }>({
    draft: null,
    byTag: new Map(),
  });
  const draftNow = `${editor.base.board.updated_at}:${editor.generation}`;
  const tried = triedIn.draft === draftNow ? triedIn.byTag : NOTHING_TRIED;
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const board = useMemo(
    () => ({ ...editor.base.board, ...editor.settings }),
    [editor.base.board, editor.settings],
  );
  const { flows, dataByTag } = useLayoutFlows(board.id, editor.layout);
  // The data as edited, drawn where it fits its variant (the renderer draws what the API takes).
  const edited = useMemo(() => {
    const fitting = new Map<string, MetricsData>();
    for (const edit of editor.edits.values()) {
      const data = parseData(edit.text);
      if (data && parseMetrics(edit.variant, data).success) fitting.set(edit.tag, data);
    }
    for (const [tag, data] of tried) fitting.set(tag, data);
    return fitting;
  }, [editor.edits, tried]);
  const showTried = (tag: string, data: MetricsData | null) => {
    const next = new Map(tried);
    if (data) next.set(tag, data);
    else next.delete(tag);
    setTried({ draft: draftNow, byTag: next });
  };
  const shown = useMemo(
    () => previewOf(board, editor.layout, flows, dataByTag, edited),
    [board, editor.layout, flows, dataByTag, edited],
  );
  const tagOf = (widget: DraftWidget) => flowTagOf(widget, flows);
  const widget = editor.layout.find((candidate) => candidate.key === selected);
  const flow = widget && widget.new_flow === undefined ? flows.get(widget.flow_id) : undefined;
  const pending = editor.layout.flatMap((candidate) => candidate.new_flow ?? []);
  const loadedText = (candidate: DraftWidget): string | null => {
    if (candidate.new_flow !== undefined) return formatData({});
    const data = dataByTag.get(tagOf(candidate));
    return data === undefined ? null : formatData(data);
  };

  const remove = (key: string) => {
    editor.change(editor.layout.filter((candidate) => candidate.key !== key));
    setSelected(null);
  };
  const add = (variant: Variant, choice: FlowChoice) => {
    const key = newKey();
    const spot = freeSpot(board, editor.layout, newWidgetSize(board));
    const code = starterCode(variant);
    const flowOf = 'flow' in choice ? { flow_id: choice.flow.id } : { flow_id: '', new_flow: choice.tag };
    const added: DraftWidget = { key, ...flowOf, variant, background: 'default', code, ...spot };
    editor.change([...editor.layout, added]);
    if ('tag' in choice) {
      // The new flow's first data, part of the draft like any edit: saved with the board.
      const text = formatData(choice.sample ? VARIANT_EXAMPLES[variant].example : {});
      editor.editData(flowKey(added), { tag: choice.tag, variant, text }, formatData({}));
    }
    setSelected(key);
    setAdding(false);
  };

  return (
    <>
      <LeaveGuard what="This board" dirty={editor.dirty} />
      <Modal
        opened={adding}
        onClose={() => setAdding(false)}
        title="Add a widget"
        size="min(72rem, 100%)"
        fullScreen={phone}
      >
        <AddWidget boardName={board.name} pending={pending} onAdd={add} />
      </Modal>
      {editor.saveError !== null && (
        <ErrorAlert
          error={editor.saveError}
          title={editor.conflict ? 'Changed by someone else' : 'The board was not saved'}
        />
      )}
      {editor.conflict && (
        <Button variant="light" mb="md" onClick={() => void editor.loadTheirs()}>
          Load their version (your edits are dropped)
        </Button>
      )}
      {editor.stale && editor.dirty && !editor.conflict && (
        <Alert color="yellow" mb="md" title="Someone else saved this board">
          Saving now will be refused so that their change is not lost; you can load their version.
        </Alert>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="lg">
            <section aria-labelledby="preview-title">
              <Title order={2} size="h4" id="preview-title" mb="sm">
                The board
              </Title>
              <EditorToolbar editor={editor} onAdd={() => setAdding(true)} />
              <BoardPreview
                board={shown}
                overlay={(scale) => (
                  <LayoutCanvas
                    board={board}
                    layout={editor.layout}
                    scale={scale}
                    tagOf={tagOf}
                    selected={selected}
                    onSelect={setSelected}
                    onChange={editor.change}
                    onDelete={remove}
                    editable={canWrite}
                  />
                )}
              />
            </section>
            <section aria-labelledby="widgets-title">
              <Title order={2} size="h4" id="widgets-title" mb="sm">
                Widgets
              </Title>
              <WidgetList layout={editor.layout} tagOf={tagOf} selected={selected} onSelect={setSelected} />
            </section>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Paper withBorder p="md">
            <Tabs defaultValue="widget" keepMounted>
              <Tabs.List mb="md">
                <Tabs.Tab value="widget">Widget</Tabs.Tab>
                <Tabs.Tab value="board">Board settings</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="widget">
                {widget ? (
                  <Stack gap="lg">
                    <WidgetInspector
                      board={board}
                      layout={editor.layout}
                      widget={widget}
                      onChange={editor.change}
                      onDelete={() => remove(widget.key)}
                      disabled={!canWrite}
                    />
                    <WidgetData
                      key={flowKey(widget)}
                      tag={tagOf(widget)}
                      flow={flow}
                      variant={widget.variant}
                      loaded={loadedText(widget)}
                      edit={editor.edits.get(flowKey(widget))}
                      onEdit={(text) =>
                        editor.editData(
                          flowKey(widget),
                          { tag: tagOf(widget), variant: widget.variant, text },
                          loadedText(widget),
                        )
                      }
                      source={flow && editor.sources.get(flow.id)}
                      onSource={editor.editSource}
                      binding={flow && editor.bindings.get(flow.id)}
                      onBinding={editor.editBinding}
                      onTried={(data) => showTried(tagOf(widget), data)}
                      disabled={!canWrite}
                    />
                  </Stack>
                ) : (
                  <Text c="dimmed" size="sm">
                    Select a widget on the board, or in the list, to place it, style it and set its data.
                  </Text>
                )}
              </Tabs.Panel>
              <Tabs.Panel value="board">
                <BoardSettings
                  key={editor.generation}
                  board={editor.base.board}
                  onDraft={editor.onSettings}
                  saveError={editor.saveError}
                />
              </Tabs.Panel>
            </Tabs>
          </Paper>
        </Grid.Col>
      </Grid>
    </>
  );
}
