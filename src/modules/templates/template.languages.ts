/** The languages of SPEC.md's `language` (sends) and of template translations. */
export const LANGUAGES = ['de', 'en', 'es', 'fr', 'it', 'lt', 'nl', 'pl', 'pt-BR'] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}
