// Servers list their embedding models too (Ollama most recently changed first): those cannot chat.
const embeddingModel = /embed|(^|[/:_-])(bge|e5|gte)([/:_-]|$)|minilm/i;

/** Whether the model's name says it makes embeddings, and so cannot chat. */
export function isEmbeddingModel(model: string): boolean {
  return embeddingModel.test(model);
}

/** The model used when the person picked none: the server's first that can chat, if any can. */
export function firstChatModel(models: readonly string[]): string | undefined {
  return models.find((model) => !isEmbeddingModel(model));
}
