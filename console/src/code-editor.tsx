import { useEffect, useRef } from 'react';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { html } from '@codemirror/lang-html';
import { liquid } from '@codemirror/lang-liquid';
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { search, searchKeymap } from '@codemirror/search';
import { EditorState, Transaction } from '@codemirror/state';
import { drawSelection, EditorView, keymap, lineNumbers } from '@codemirror/view';
import { tags } from '@lezer/highlight';

/**
 * CodeMirror for a template's HTML or text: liquid tags ({{ }}, {% %}) over HTML, highlighted with
 * plain class names (tok-*) that the theme below colours and tests can find. Loaded on demand
 * (React.lazy in pages/template-editor.tsx), so no other page downloads it.
 *
 * Its styles are <style> elements in the head: the console's CSP (src/http/console.ts) already
 * allows inline styles for the email previews, so no nonce is needed.
 */

// Fixed classes instead of generated ones; the colours reach 4.5:1 on white (axe, WCAG AA).
const highlight = HighlightStyle.define([
  { tag: tags.tagName, class: 'tok-tag' },
  { tag: tags.attributeName, class: 'tok-attr' },
  { tag: [tags.string, tags.attributeValue], class: 'tok-string' },
  { tag: tags.comment, class: 'tok-comment' },
  { tag: tags.brace, class: 'tok-brace' },
  { tag: tags.keyword, class: 'tok-keyword' },
  { tag: [tags.variableName, tags.propertyName], class: 'tok-variable' },
  { tag: [tags.number, tags.bool, tags.atom], class: 'tok-literal' },
  { tag: tags.operator, class: 'tok-operator' },
  { tag: [tags.angleBracket, tags.punctuation, tags.bracket, tags.meta], class: 'tok-punctuation' },
  { tag: tags.invalid, class: 'tok-invalid' },
]);

const theme = EditorView.theme({
  '&': { border: '1px solid #d1d5db', borderRadius: '6px', background: '#fff', fontSize: '0.85rem', maxHeight: '36rem' },
  // The console's own focus ring (style.css :focus-visible), on the whole editor.
  '&.cm-focused': { outline: '3px solid #93c5fd', outlineOffset: '2px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, Menlo, monospace', overflow: 'auto' },
  '.cm-gutters': { background: '#f3f4f6', color: '#4b5563', borderRight: '1px solid #e5e7eb', borderRadius: '6px 0 0 6px' },
  '.cm-matchingBracket, &.cm-focused .cm-matchingBracket': { background: '#dbeafe', outline: '1px solid #1d4ed8' },
  '.cm-nonmatchingBracket, &.cm-focused .cm-nonmatchingBracket': { background: '#fee2e2', color: '#991b1b' },
  '.tok-tag': { color: '#116329' },
  '.tok-attr': { color: '#0550ae' },
  '.tok-string': { color: '#0a3069' },
  '.tok-comment': { color: '#57606a', fontStyle: 'italic' },
  '.tok-brace, .tok-keyword': { color: '#6639ba', fontWeight: '600' },
  '.tok-variable': { color: '#953800' },
  '.tok-literal': { color: '#0550ae' },
  '.tok-operator': { color: '#b31d28' },
  '.tok-punctuation': { color: '#57606a' },
  '.tok-invalid': { color: '#82071e', textDecoration: 'underline wavy' },
});

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** The id of the element that names the field (its visible label). */
  labelledBy: string;
  /** The id of the keyboard hint under the field. */
  describedBy: string;
  /** The least height, in lines, the field shows. */
  lines: number;
}

function extensions({ labelledBy, describedBy, lines }: CodeEditorProps, changed: (value: string) => void) {
  return [
    lineNumbers(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    search({ top: true }),
    // No tag closing while typing: what is typed is what is saved.
    liquid({ base: html({ autoCloseTags: false }) }),
    syntaxHighlighting(highlight),
    EditorView.lineWrapping,
    // Tab indents; Escape then Tab (the view's own behaviour) or Ctrl-M lets Tab move focus on.
    keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, indentWithTab]),
    EditorView.contentAttributes.of({ 'aria-labelledby': labelledBy, 'aria-describedby': describedBy }),
    theme,
    EditorView.theme({ '.cm-content, .cm-gutter': { minHeight: `${lines * 1.4}em` } }),
    EditorView.updateListener.of((u) => {
      if (u.docChanged) changed(u.state.doc.toString());
    }),
  ];
}

/** A controlled code field: `value` from the page, every edit back through `onChange`. */
export function CodeEditor(props: CodeEditorProps) {
  const parent = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const own = useRef(props.value);

  useEffect(() => {
    const changed = (value: string) => {
      own.current = value;
      onChange.current(value);
    };
    const v = new EditorView({ parent: parent.current!, state: EditorState.create({ doc: props.value, extensions: extensions(props, changed) }) });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
  }, []);

  // A value from outside (the stored template arriving) replaces the text, and is not an undo step.
  useEffect(() => {
    const v = view.current;
    if (!v || props.value === own.current) return;
    own.current = props.value;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: props.value }, annotations: Transaction.addToHistory.of(false) });
  }, [props.value]);

  return <div ref={parent} className="code-editor" />;
}
