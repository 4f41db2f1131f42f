/**
 * What Chrome asks of a computer before it runs its built-in model, as Chrome's built-in AI
 * documentation gives it: said where Chrome says the model cannot run, so a person can tell whether
 * theirs could.
 */
export const promptApiNeeds =
  'It needs desktop Chrome on Windows 10 or 11, macOS 13 or later, Linux or a Chromebook Plus; 22 GB free on the disk of Chrome\'s profile; ' +
  'and a graphics chip with more than 4 GB of memory, or 16 GB of RAM and 4 processor cores.';
