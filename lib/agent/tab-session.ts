import { originOf } from '../text/origin-of';
import type { ActiveRun, Decision, RunSeenFromElsewhere } from './active-run';
import type { SessionMessage } from './agent-port-protocol';
import type { AgentWorld } from './agent-world';
import { endedTurn, turnEndedByFault } from './ended-turn';
import { withLoadedPageResult } from './loaded-page-result';
import { newActiveRun } from './new-active-run';
import { runRequest, type RequestHost } from './run-request';
import { SessionHistory } from './session-history';
import type { StoredConversation, StoredSession } from './session-store';
import type { Turn, TurnOutcome } from './session-state';
import { storedConversation } from './stored-conversation';
import { toolMayHaveLoaded } from './tool-may-have-loaded';
import { agentOffNotice } from './turn-notices';
import { agentRefusal } from '../service-worker/tab-drivers';

/** One tab's conversation and the run going on in it. */
export class TabSession {
  turns: Turn[];
  /** What the model reads again of this conversation. */
  private readonly history = new SessionHistory();
  private active?: ActiveRun;
  /** What the run, its calls and its questions to the person need of this session (see runRequest). */
  private readonly runHost: RequestHost;
  /**
   * Bumped by "New chat" and by its Undo: a run, or a page result it waits for, from before either
   * changes nothing in the conversation shown after it, whatever the moment it comes back.
   */
  private generation = 0;
  /** The conversation "New chat" put aside: Undo brings it back, until the next request. */
  private previous?: StoredConversation;
  /** How many of the conversation's first turns were not kept when a worker stopped: storage holds so much. */
  private leftOut = 0;

  constructor(
    readonly tabId: number,
    private readonly world: AgentWorld,
    private readonly publish: (message: SessionMessage) => void,
    stored?: StoredSession,
  ) {
    this.turns = [];
    this.runHost = {
      tabId,
      world,
      toolRan: false,
      history: this.history,
      isActive: (active) => this.active === active,
      inConversation: (active) => this.generation === active.generation,
      turnBefore: (active) => this.turns.filter((turn) => turn.id !== active.turnId).at(-1),
      stop: (reason, detail) => this.stop(reason, detail),
      agentTurnedOff: (origin) => this.agentTurnedOff(origin),
      documentChanged: () => this.documentChanged(),
    };
    if (stored) this.restore(stored);
    this.previous = stored?.previous;
  }

  /** What outlives the service worker. */
  stored(): StoredSession {
    return { ...this.conversation(), ...(this.previous ? { previous: this.previous } : {}) };
  }

  private conversation(): StoredConversation {
    return storedConversation(this.active, this.turns, this.history, this.generation, this.leftOut);
  }

  private restore(conversation: StoredConversation): void {
    this.turns = conversation.turns;
    this.leftOut = conversation.turnsLeftOut ?? 0;
    this.history.restore(conversation);
  }

  get running(): boolean {
    return this.active !== undefined;
  }

  /** The site the chat's history was made on, where it has one. */
  get site(): string | undefined {
    return this.history.origin;
  }

  /** The run going on here, for the panel of a tab that waits for it; undefined before its page was read. */
  get runSeenFromElsewhere(): RunSeenFromElsewhere | undefined {
    const active = this.active;
    if (!active?.page) return undefined;
    return { ...active.page, privateWindow: active.privateWindow === true, askingYou: active.approvals.size > 0 };
  }

  /** Resolves once no run goes on here: at once, or when the running one has ended. */
  whenIdle(): Promise<void> {
    return this.active?.ended ?? Promise.resolve();
  }

  stop(reason: TurnOutcome = 'stopped', detail?: string): void {
    if (!this.active || this.active.controller.signal.aborted) return;
    this.active.stopReason = reason;
    this.active.stopDetail = detail;
    this.active.controller.abort();
  }

  /**
   * The agent is off on `origin` (the person turned it off on the tab's site, or a run found it off
   * there or on a framed tool's): a run there stops now, saying why.
   */
  agentTurnedOff(origin: string): void {
    if (this.active && !this.active.controller.signal.aborted) this.active.agentOff = true;
    this.stop('stopped', agentOffNotice(origin));
  }

  /**
   * The tab committed a new document (`documentId`, where the browser names it): a run on the old
   * one ends. `byPerson`: the person brought it (a reload, an address typed, Back).
   */
  documentChanged(documentId?: string, byPerson = false): void {
    // A tool running, or done a moment ago, may be what loaded it (a form that posts): say so. Not
    // where the person loaded it, nor while the run asks them about a later call: that tool's work
    // was done before the question.
    const active = this.active;
    const tool = active?.lastTool;
    const mayHaveLoaded = !byPerson && active?.approvals.size === 0 && tool !== undefined && toolMayHaveLoaded(tool);
    this.stop('navigated', mayHaveLoaded ? tool.name : undefined);
    // Only a call of the top frame, whose work loads the tab's page: a framed tool loads only its frame.
    if (active && mayHaveLoaded && tool.topFrame && this.history.origin) void this.showLoadedPageResult(active, { ...tool, loadedBy: tool.topFrame }, this.history.origin, documentId);
  }

  /**
   * A form that posts ends the run by loading a page, which may give the form's result (its
   * JSON-LD, as WebMCP's declarative explainer proposes); a script's tool that opens a page ends it
   * too. Where that page is of the run's site, the call's card shows where the tab went, and what
   * the page gives of a form's result, and the history says it, so a later "did it go through?" is
   * answered from what the page said. A script's tool is not given the page's JSON-LD: any page of
   * a site may carry some (a product, the site's name), which says nothing of the call.
   */
  private async showLoadedPageResult(active: ActiveRun, tool: { name: string; callId: string; loadedBy: 'form' | 'script' }, site: string, documentId?: string): Promise<void> {
    const [read] = await Promise.all([this.world.readLoadedPageResult?.(this.tabId, documentId), active.ended]);
    if (!read || this.generation !== active.generation || originOf(read.url) !== site) return;
    const loaded = tool.loadedBy === 'form' ? read : { url: read.url, ...(read.title ? { title: read.title } : {}) };
    const turn = this.turns.find((candidate) => candidate.id === active.turnId);
    const updated = turn && withLoadedPageResult(turn, tool, loaded);
    if (!updated) return;
    this.turns = this.turns.map((candidate) => (candidate.id === updated.id ? updated : candidate));
    // The history's note of this request says it too.
    this.history.updateNote(active.note, updated, site);
    this.publish({ type: 'turn', tabId: this.tabId, turn: updated });
    this.world.persist(true);
  }

  /**
   * "New chat". A conversation at rest is put aside for Undo; one cut off in the middle of a run
   * (the panel never asks that, but another may) is gone, as its run is. An empty one keeps what
   * was put aside before it.
   */
  clear(): void {
    if (this.turns.length > 0) this.previous = this.running ? undefined : this.conversation();
    this.stop();
    this.generation += 1;
    this.turns = [];
    this.leftOut = 0;
    this.history.clear();
  }

  /** How many of the conversation's first turns a worker before this one did not get back (see `boundStoredSessions`). */
  get turnsLeftOut(): number {
    return this.leftOut;
  }

  /** Whether the tab has a chat to keep: turns, or one put aside for Undo. */
  get hasChat(): boolean {
    return this.turns.length > 0 || this.previous !== undefined;
  }

  /** Whether Undo would bring back a conversation: one was put aside, and nothing has happened since. */
  get canUndoClear(): boolean {
    return this.previous !== undefined && this.turns.length === 0 && !this.running;
  }

  /** Undo of "New chat": the conversation put aside comes back as it was. Answers whether one did. */
  undoClear(): boolean {
    if (!this.canUndoClear) return false;
    this.restore(this.previous!);
    this.previous = undefined;
    this.generation += 1;
    return true;
  }

  decide(callId: string, decision: Decision): void {
    this.active?.approvals.get(callId)?.answer(decision);
  }

  /** The page's tools or the settings changed: a call waiting for the person may need them no more. */
  lookAgainAtQuestions(): void {
    for (const question of this.active?.approvals.values() ?? []) question.lookAgain();
  }

  /** Runs the agent for one request; resolves when the turn has ended, however it ended. */
  async send(request: string): Promise<void> {
    if (this.active) return this.publish({ type: 'error', tabId: this.tabId, message: agentRefusal('agent') });
    // A replay from the trace viewer may be running the page's tools here: one driver at a time.
    const claim = this.world.takeTab(this.tabId);
    if ('busy' in claim) return this.publish({ type: 'error', tabId: this.tabId, message: agentRefusal(claim.busy) });
    // A request in the new chat: the conversation put aside is not coming back, nor merged with this one.
    this.previous = undefined;
    let turn: Turn = { id: crypto.randomUUID(), request, items: [], startedAt: Date.now() };
    const { active, markEnded } = newActiveRun(this.generation, turn.id);
    this.active = active;
    const setTurn = (next: Turn, message: SessionMessage = { type: 'turn', tabId: this.tabId, turn: next }) => {
      turn = next;
      // "New chat" came meanwhile: this run's turn is not part of the new conversation.
      if (this.generation !== active.generation) return;
      this.turns = [...this.turns.filter((existing) => existing.id !== next.id), next];
      this.publish(message);
      this.world.persist(message.type !== 'prose-delta');
    };
    let releaseWorker = (): void => {};
    // From here on the turn ends however it goes, and the tab is free again: one left claimed
    // would refuse every request and replay until the worker stops.
    try {
      // The request is shown and saved before anything else, so a worker that stops now keeps it.
      setTurn(turn);
      // A slow tool, a long reply or the person deciding must not see the worker stopped under it.
      releaseWorker = this.world.keepAwake();
      const [outcome, detail] = await runRequest(this.runHost, request, active, { current: () => turn, setTurn });
      setTurn(endedTurn(turn, active, outcome, detail));
    } catch (error) {
      // A fault of the extension itself: the turn still ends, and the next request can run.
      setTurn(turnEndedByFault(turn, error));
    } finally {
      releaseWorker();
      claim.release();
      if (turn.runId) this.world.recorder.endRun(turn.runId, turn.outcome ?? 'error', turn.endedAt ?? Date.now(), turn.notice);
      if (this.active === active) this.active = undefined;
      markEnded();
    }
  }
}
