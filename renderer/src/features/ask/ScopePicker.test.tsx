import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Output } from '../../../../shared/contract';
import { renderWithFake, answerResult } from '../../test/harness';
import { AnswerView } from './AnswerView';
import { ScopePicker } from './ScopePicker';
import { scopeInput, setScope } from './scope';
import { SearchBox } from './SearchBox';
import { finishTurn, newTurn } from './turn';

type Collection = Output<'library'>['collections'][number];
const doc = (relPath: string): Collection['documents'][number] => ({
  id: relPath,
  relPath,
  title: null,
  type: 'markdown',
  status: 'ready',
  statusCode: null,
  statusMessage: null,
  chunks: 1,
  ingestedAt: '2026-03-01T10:00:00Z',
});
const folder = (id: string, name: string, relPaths: string[] = []): Collection => ({
  id,
  name,
  root: `/home/me/${name}`,
  createdAt: '2026-03-01T10:00:00Z',
  documents: relPaths.map(doc),
  watch: { state: 'off', busy: false, queued: 0, error: null },
  pending: [],
});
afterEach(() => setScope([]));

const summaryText = (picker: HTMLElement) => picker.querySelector('summary strong')!.textContent;
const item = (picker: HTMLElement, name: string) => within(picker).getByRole('treeitem', { name });
/** Opens or closes a folder with the mouse, on its arrow. */
const clickArrow = (picker: HTMLElement, name: string) => fireEvent.click(item(picker, name).querySelector('.scope__expand')!);
const state = (el: HTMLElement) => [el.getAttribute('aria-checked'), el.getAttribute('aria-disabled')];

describe('asking of some folders', () => {
  it('ticks folders into the scope that questions and searches send; All folders clears it', async () => {
    const h = renderWithFake(
      <>
        <ScopePicker />
        <SearchBox onOpenSource={() => {}} />
      </>,
      {
        library: () => ({ collections: [folder('c1', 'work'), folder('c2', 'home')] }),
        search: () => ({ mode: 'lexical', embedModel: null, embedDigest: null, results: [], ms: 1 }),
      },
    );
    const picker = await screen.findByTestId('scope-picker');
    expect(summaryText(picker)).toBe('All folders');
    fireEvent.click(item(picker, 'home'));
    expect(scopeInput()).toEqual({ collections: ['c2'] });
    expect(summaryText(picker)).toBe('home');
    fireEvent.change(screen.getByTestId('search-box'), { target: { value: 'keys' } });
    fireEvent.submit(screen.getByTestId('search-box').closest('form')!);
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'search')?.input).toMatchObject({ query: 'keys', collections: ['c2'] }));
    fireEvent.click(within(picker).getByLabelText('All folders'));
    expect(scopeInput()).toEqual({ collections: [] });
  });

  it('is not offered with a single folder, and a folder that leaves the library leaves the scope', async () => {
    let collections = [folder('c1', 'work'), folder('c2', 'home')];
    const h = renderWithFake(<ScopePicker />, { library: () => ({ collections }) });
    fireEvent.click(item(await screen.findByTestId('scope-picker'), 'home'));
    collections = [folder('c1', 'work')];
    act(() => h.emit({ type: 'library.changed' }));
    await waitFor(() => expect(screen.queryByTestId('scope-picker')).toBeNull());
    // The scope is pruned by the picker's effect once the new library is in, which may be a render later.
    await waitFor(() => expect(scopeInput()).toEqual({ collections: [] }));
  });

  it('a flood of library.changed events (an import of thousands of files) costs a few library fetches, the last state still shown', async () => {
    let collections = [folder('c1', 'work'), folder('c2', 'home')];
    const h = renderWithFake(<ScopePicker />, { library: () => ({ collections }) });
    await screen.findByTestId('scope-picker');
    collections = [folder('c1', 'work'), folder('c2', 'home'), folder('c3', 'garden')];
    act(() => {
      for (let i = 0; i < 2000; i++) h.emit({ type: 'library.changed' });
    });
    await waitFor(() => expect(within(screen.getByTestId('scope-picker')).queryByLabelText('garden')).not.toBeNull(), { timeout: 3000 });
    const fetches = h.transport.calls.filter((c) => c.method === 'library').length;
    expect(fetches).toBeLessThanOrEqual(3);
  });

  it('offers the top-level folders inside one imported folder; a ticked one is sent as { collectionId, path }, a ticked whole folder covers them', async () => {
    let collections = [folder('c1', 'notes', ['todo.md', 'work/keys.md', 'work/deep/old.md', 'workshop/saw.md', 'recipes/bread.md'])];
    const h = renderWithFake(
      <>
        <ScopePicker />
        <SearchBox onOpenSource={() => {}} />
      </>,
      {
        library: () => ({ collections }),
        search: () => ({ mode: 'lexical', embedModel: null, embedDigest: null, results: [], ms: 1 }),
      },
    );
    // One folder, but with folders inside it: a choice, so the picker is there.
    const picker = await screen.findByTestId('scope-picker');
    const inside = within(picker).getByRole('group', { name: 'Folders inside notes' });
    expect(within(inside).getAllByRole('treeitem').map((c) => c.getAttribute('aria-label'))).toEqual(['notes/recipes', 'notes/work', 'notes/workshop']);
    fireEvent.click(within(picker).getByLabelText('notes/work'));
    fireEvent.click(within(picker).getByLabelText('notes/recipes'));
    expect(scopeInput()).toEqual({ collections: [{ collectionId: 'c1', path: 'work' }, { collectionId: 'c1', path: 'recipes' }] });
    expect(summaryText(picker)).toBe('notes/work, notes/recipes');
    fireEvent.change(screen.getByTestId('search-box'), { target: { value: 'keys' } });
    fireEvent.submit(screen.getByTestId('search-box').closest('form')!);
    await waitFor(() => expect(h.transport.calls.find((c) => c.method === 'search')?.input).toMatchObject({ collections: [{ collectionId: 'c1', path: 'work' }, { collectionId: 'c1', path: 'recipes' }] }));
    // Unticking one leaves the other.
    fireEvent.click(within(picker).getByLabelText('notes/recipes'));
    expect(scopeInput()).toEqual({ collections: [{ collectionId: 'c1', path: 'work' }] });
    // The whole folder ticked: its subfolders are covered, shown ticked and not separately choosable.
    fireEvent.click(within(picker).getByLabelText('notes'));
    expect(scopeInput()).toEqual({ collections: ['c1'] });
    expect(state(item(picker, 'notes/work'))).toEqual(['true', 'true']);
    // A covered folder cannot be ticked apart.
    fireEvent.click(item(picker, 'notes/work'));
    expect(scopeInput()).toEqual({ collections: ['c1'] });
    fireEvent.click(within(picker).getByLabelText('notes'));
    expect(scopeInput()).toEqual({ collections: [] });
    // A subfolder whose documents all left the library leaves the scope.
    fireEvent.click(within(picker).getByLabelText('notes/workshop'));
    fireEvent.click(within(picker).getByLabelText('notes/work'));
    collections = [folder('c1', 'notes', ['todo.md', 'work/keys.md', 'recipes/bread.md'])];
    act(() => h.emit({ type: 'library.changed' }));
    await waitFor(() => expect(within(picker).queryByLabelText('notes/workshop')).toBeNull());
    // Pruned by the picker's effect once the new library is in, which may be a render later.
    await waitFor(() => expect(scopeInput()).toEqual({ collections: [{ collectionId: 'c1', path: 'work' }] }));
  });

  it('offers folders at any depth as a tree closed below the top level; a ticked folder covers everything inside it', async () => {
    let collections = [folder('c1', 'notes', ['todo.md', 'home/x.md', 'work/keys.md', 'work/archive/old.md', 'work/projects/a.md', 'work/projects/q3/plan.md'])];
    const h = renderWithFake(<ScopePicker />, { library: () => ({ collections }) });
    const picker = await screen.findByTestId('scope-picker');
    const inside = within(picker).getByRole('group', { name: 'Folders inside notes' });
    expect(within(inside).getAllByRole('treeitem').map((c) => c.getAttribute('aria-label'))).toEqual(['notes/home', 'notes/work']);
    // Only a folder with folders inside it opens; it starts closed.
    expect(item(picker, 'notes/home').hasAttribute('aria-expanded')).toBe(false);
    expect(item(picker, 'notes/home').querySelector('.scope__expand')).toBeNull();
    const work = item(picker, 'notes/work');
    expect(work.getAttribute('aria-expanded')).toBe('false');
    clickArrow(picker, 'notes/work');
    expect(work.getAttribute('aria-expanded')).toBe('true');
    // Opening is not ticking.
    expect(scopeInput()).toEqual({ collections: [] });
    const inWork = within(picker).getByRole('group', { name: 'Folders inside notes/work' });
    expect(within(inWork).getAllByRole('treeitem').map((c) => c.getAttribute('aria-label'))).toEqual(['notes/work/archive', 'notes/work/projects']);
    clickArrow(picker, 'notes/work/projects');
    // A deep folder is sent as its path; ticking the folder around it drops it and covers it.
    fireEvent.click(within(picker).getByLabelText('notes/work/projects/q3'));
    fireEvent.click(within(picker).getByLabelText('notes/home'));
    expect(scopeInput()).toEqual({ collections: [{ collectionId: 'c1', path: 'work/projects/q3' }, { collectionId: 'c1', path: 'home' }] });
    fireEvent.click(within(picker).getByLabelText('notes/work/projects'));
    expect(scopeInput()).toEqual({ collections: [{ collectionId: 'c1', path: 'home' }, { collectionId: 'c1', path: 'work/projects' }] });
    expect(state(item(picker, 'notes/work/projects/q3'))).toEqual(['true', 'true']);
    expect(state(item(picker, 'notes/work/archive'))).toEqual(['false', null]);
    fireEvent.click(within(picker).getByLabelText('notes/work/archive'));
    // Three parts too long for one line: the first and how many more, the whole list its tooltip.
    const summary = picker.querySelector('summary strong')!;
    expect(summary.textContent).toBe('notes/home, +2 more');
    // The count apart from the first place, so that only the place is cut short on a narrow line.
    expect(summary.querySelector('.scope__more')!.textContent).toBe(', +2 more');
    expect(summary.getAttribute('title')).toBe('notes/home, notes/work/projects, notes/work/archive');
    // Closing a folder hides what is inside it, and says how much of it is ticked.
    clickArrow(picker, 'notes/work');
    expect(within(picker).queryByLabelText('notes/work/projects')).toBeNull();
    expect(within(picker).getByText(/2 ticked inside/)).toBeTruthy();
    // A deep folder whose documents all left the library leaves the scope.
    collections = [folder('c1', 'notes', ['home/x.md', 'work/keys.md', 'work/projects/a.md'])];
    act(() => h.emit({ type: 'library.changed' }));
    await waitFor(() => expect(scopeInput()).toEqual({ collections: [{ collectionId: 'c1', path: 'home' }, { collectionId: 'c1', path: 'work/projects' }] }));
  });

  it('goes to a folder by typing its first letters, the same letter again to the next one, and starts afresh after a pause', async () => {
    renderWithFake(<ScopePicker />, {
      library: () => ({ collections: [folder('c1', 'notes', ['games/x.md', 'garden/beds.md', 'gardening/tools.md', 'Élan/a.md', 'work/keys.md']), folder('c2', 'garage', ['car.md'])] }),
    });
    const picker = await screen.findByTestId('scope-picker');
    const focused = () => document.activeElement?.getAttribute('aria-label');
    const press = (key: string) => fireEvent.keyDown(document.activeElement!, { key });
    const clock = vi.spyOn(Date, 'now').mockReturnValue(1_000_000);
    try {
      item(picker, 'notes').focus();
      press('g');
      expect(focused()).toBe('notes/games');
      press('g');
      expect(focused()).toBe('notes/garden');
      // After a pause, a name typed on: from the folder reached, each letter narrowing it.
      clock.mockReturnValue(1_001_000);
      item(picker, 'notes').focus();
      press('g');
      press('a');
      expect(focused()).toBe('notes/games');
      press('r');
      expect(focused()).toBe('notes/garden');
      for (const c of 'deni') press(c);
      expect(focused()).toBe('notes/gardening');
      // After a pause a letter starts a new name; past the last row it wraps round to the first.
      clock.mockReturnValue(1_002_000);
      press('w');
      expect(focused()).toBe('notes/work');
      clock.mockReturnValue(1_004_000);
      press('G');
      expect(focused()).toBe('garage');
      clock.mockReturnValue(1_006_000);
      press('e');
      expect(focused()).toBe('notes/Élan');
      // Nothing so named: the focus stays; the tree's Tab stop follows every move.
      clock.mockReturnValue(1_008_000);
      press('z');
      expect(focused()).toBe('notes/Élan');
      expect(within(picker).getAllByRole('treeitem').filter((r) => r.tabIndex === 0).map((r) => r.getAttribute('aria-label'))).toEqual(['notes/Élan']);
      // Space still ticks when no name is being typed.
      clock.mockReturnValue(1_010_000);
      press(' ');
      expect(scopeInput()).toEqual({ collections: [{ collectionId: 'c1', path: 'Élan' }] });
    } finally {
      clock.mockRestore();
    }
  });

  it('is a tree a keyboard walks: one Tab stop; Up/Down between the rows shown; Right opens, then goes in; Left closes, then goes out; Home/End; Space ticks', async () => {
    renderWithFake(<ScopePicker />, { library: () => ({ collections: [folder('c1', 'notes', ['home/x.md', 'work/keys.md', 'work/archive/old.md', 'work/projects/a.md']), folder('c2', 'garden', ['beds.md'])] }) });
    const picker = await screen.findByTestId('scope-picker');
    const tree = within(picker).getByRole('tree');
    const rows = () => within(tree).getAllByRole('treeitem').map((r) => r.getAttribute('aria-label'));
    const focused = () => document.activeElement?.getAttribute('aria-label');
    const press = (key: string) => fireEvent.keyDown(document.activeElement!, { key });
    expect(rows()).toEqual(['notes', 'notes/home', 'notes/work', 'garden']);
    // One Tab stop, the first row until another is moved to.
    expect(within(tree).getAllByRole('treeitem').filter((r) => r.tabIndex === 0).map((r) => r.getAttribute('aria-label'))).toEqual(['notes']);
    item(picker, 'notes').focus();
    press('ArrowDown');
    press('ArrowDown');
    expect(focused()).toBe('notes/work');
    expect(within(tree).getAllByRole('treeitem').filter((r) => r.tabIndex === 0).map((r) => r.getAttribute('aria-label'))).toEqual(['notes/work']);
    press('ArrowRight');
    expect([focused(), item(picker, 'notes/work').getAttribute('aria-expanded')]).toEqual(['notes/work', 'true']);
    expect(rows()).toEqual(['notes', 'notes/home', 'notes/work', 'notes/work/archive', 'notes/work/projects', 'garden']);
    press('ArrowRight');
    expect(focused()).toBe('notes/work/archive');
    press('ArrowDown');
    press('ArrowDown');
    expect(focused()).toBe('garden');
    press('ArrowDown');
    expect(focused()).toBe('garden');
    press('ArrowUp');
    expect(focused()).toBe('notes/work/projects');
    press(' ');
    expect(scopeInput()).toEqual({ collections: [{ collectionId: 'c1', path: 'work/projects' }] });
    // A folder with nothing inside it: Right stays, Left goes to its parent; Left again closes it.
    press('ArrowRight');
    expect(focused()).toBe('notes/work/projects');
    press('ArrowLeft');
    expect(focused()).toBe('notes/work');
    press('ArrowLeft');
    expect(item(picker, 'notes/work').getAttribute('aria-expanded')).toBe('false');
    expect(within(picker).getByText(/1 ticked inside/)).toBeTruthy();
    // What is ticked inside a closed folder is said with the row, not only shown.
    expect(document.getElementById(item(picker, 'notes/work').getAttribute('aria-describedby')!)?.textContent).toBe(' · 1 ticked inside');
    press('ArrowLeft');
    expect(focused()).toBe('notes');
    // Space on the whole folder: the folders inside are covered, and Space on one of them changes nothing.
    press(' ');
    expect(scopeInput()).toEqual({ collections: ['c1'] });
    press('ArrowDown');
    expect(item(picker, 'notes/home').getAttribute('aria-disabled')).toBe('true');
    press(' ');
    expect(scopeInput()).toEqual({ collections: ['c1'] });
    press('End');
    expect(focused()).toBe('garden');
    press('Home');
    press('ArrowLeft');
    expect(rows()).toEqual(['notes', 'garden']);
    press(' ');
    expect(scopeInput()).toEqual({ collections: [] });
  });

  it('closing a folder by its arrow while a row inside it has focus brings focus to that folder, not the page', async () => {
    renderWithFake(<ScopePicker />, { library: () => ({ collections: [folder('c1', 'notes', ['work/keys.md', 'work/archive/old.md']), folder('c2', 'garden', ['beds.md'])] }) });
    const picker = await screen.findByTestId('scope-picker');
    clickArrow(picker, 'notes/work');
    item(picker, 'notes/work/archive').focus();
    clickArrow(picker, 'notes/work');
    expect(within(picker).queryByRole('treeitem', { name: 'notes/work/archive' })).toBeNull();
    expect(document.activeElement).toBe(item(picker, 'notes/work'));
  });

  it('a folder with hundreds of folders inside lists them all in one scrolling list', async () => {
    const many = Array.from({ length: 300 }, (_, i) => `inbox/day-${String(i).padStart(3, '0')}/n.md`);
    renderWithFake(<ScopePicker />, { library: () => ({ collections: [folder('c1', 'notes', many)] }) });
    const picker = await screen.findByTestId('scope-picker');
    clickArrow(picker, 'notes/inbox');
    const inbox = within(picker).getByRole('group', { name: 'Folders inside notes/inbox' });
    expect(within(inbox).getAllByRole('treeitem')).toHaveLength(300);
    expect(picker.querySelector('.scope__list')).toBeTruthy();
  });

  it('is not offered for one folder with nothing inside it but files', async () => {
    renderWithFake(<ScopePicker />, { library: () => ({ collections: [folder('c1', 'notes', ['a.md', 'b.md'])] }) });
    await waitFor(() => expect(screen.queryByTestId('scope-picker')).toBeNull());
  });

  it('an answer names the subfolders it was limited to', () => {
    const turn = finishTurn(newTurn(1, 'q'), answerResult({ answer: 'Every year.', scope: [{ id: 'c1', name: 'notes', path: 'work' }, { id: 'c2', name: 'home', path: '' }] }), null);
    renderWithFake(<AnswerView turn={turn} onOpenSource={() => {}} />);
    expect(screen.getByTestId('answer-scope').textContent).toBe('Asked of notes/work, home only.');
  });

  it('an answer says which folders it was limited to', () => {
    const turn = finishTurn(newTurn(1, 'q'), answerResult({ answer: 'Every year.', scope: [{ id: 'c2', name: 'home', path: '' }] }), null);
    renderWithFake(<AnswerView turn={turn} onOpenSource={() => {}} />);
    expect(screen.getByTestId('answer-scope').textContent).toBe('Asked of home only.');
  });
});
