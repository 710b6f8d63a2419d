/**
 * Filter forms whose state is the URL (`form[data-url-filters]`, plain GET forms that work without
 * JavaScript): with it, empty fields and defaults stay out of the URL and a changed field applies at once.
 */
export function wireUrlFilterForms(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-url-filters]')) {
    if (form.dataset.wired) continue;
    form.dataset.wired = '1';
    form.addEventListener('formdata', (event) => {
      for (const [name, value] of [...event.formData.entries()]) if (value === '') event.formData.delete(name);
    });
    form.addEventListener('change', () => form.requestSubmit());
  }
}
