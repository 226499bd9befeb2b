/**
 * The bridge's own words, in English and Simplified Chinese, chosen by
 * `view.locale`. Agent text is never translated. Parameters marked `mrkdwn`
 * are already escaped (or trusted, like `<@U…>` from Slack) by the caller;
 * the words themselves contain no `&`, `<` or `>`.
 */
import type { Locale, SettledElsewhereHow } from './view.js'

/** What a person gave that is on its way to the host. */
export type DeliveringWhat = 'answer' | 'approval' | 'changes' | 'dismissal' | 'allowed' | 'rejected'

/** What a status line is about: a question (plan reviews included) or a tool approval. */
export type AskSubject = 'question' | 'approval'

export interface Words {
  /** Context line: who asks. */
  agent: string
  session: string
  /** `date` is a mrkdwn date token. */
  expires(date: string): string
  /** Slack `<!date>` format string for absolute times. */
  dateFormat: string
  other: string
  reply: string
  dismiss: string
  skip: string
  submit: string
  next: string
  cancel: string
  send: string
  answer: string
  requestChanges: string
  allowOnce: string
  reject: string
  choose: string
  chooseMany: string
  /** The form's label for a single-choice input (the question is shown above it). */
  chooseOne: string
  /** The form's label for a multiple-choice input. */
  chooseAny: string
  search(count: number): string
  blank: string
  multiHint: string
  replyHint: string
  continuedInThread(parts: number): string
  part(index: number, count: number): string
  restInFile(filename: string): string
  fileTitle: string
  batchIntro(count: number): string
  /** A settled batch's first line: the form is gone, so nothing about how to fill it in. */
  batchSettledIntro(count: number): string
  /** A short batch shown as a carousel (decision 0077): how answering it works. */
  carouselIntro(count: number): string
  /** A card choice was kept as the person's draft; `question` and `label` are escaped mrkdwn. */
  choiceNoted(question: string, label: string, chosen: number, total: number): string
  moreQuestions(count: number): string
  otherTitle: string
  formTitle(page: number, pages: number): string
  feedbackTitle: string
  yourAnswer: string
  /** Label of the batch form's Other box; Slack itself appends "(optional)". */
  otherOptional: string
  formHint: string
  /** Other… on a multi-select with ticks: the ticks are in the box, and typed text replaces them. */
  tickedCarried: string
  feedbackLabel: string
  feedbackHint: string
  blankAnswer: string
  tooLong(max: number): string
  shortenedHere: string
  planReview: string
  toolApproval: string
  tool: string
  reason: string
  callId: string
  /** Approval card: the labels of the call's code blocks. */
  command: string
  arguments: string
  otherArguments: string
  argumentsInThread: string
  /** A folded approval's subtitle after the first line: how many lines the fold holds besides it. */
  moreLines(count: number): string
  argumentsInFile(filename: string): string
  argumentsNotSeen: string
  argumentsFileTitle: string
  /** Context line: which harness host (the relay with several). */
  host: string
  /**
   * Status line of a relayed request settled in Slack while the host has not
   * accepted it yet: `what` says what was given, `who` and `when` are mrkdwn.
   */
  delivering(what: DeliveringWhat, who: string, when: string): string
  /** Status lines: `who` and `when` are mrkdwn. */
  answeredBy(who: string, when: string): string
  approvedBy(who: string, when: string): string
  changesRequestedBy(who: string, when: string): string
  dismissedBy(who: string, when: string): string
  /** `what`: a tool approval is no question, and its card must not call it one. */
  aborted(when: string, what: AskSubject): string
  expired(when: string, what: AskSubject): string
  stopped(when: string): string
  /** `who` (mrkdwn) is set for `undelivered`: whose answer never reached the host. */
  settledElsewhere(how: SettledElsewhereHow, when: string, who?: string): string
  allowedBy(who: string, when: string): string
  rejectedBy(who: string, when: string): string
  failed(when: string): string
  skipped: string
  moreAnswers(count: number): string
  /** Ephemeral notices. */
  alreadyAnsweredBy(who: string): string
  alreadySettled: string
  alreadyDismissedBy(who: string): string
  alreadyDecidedBy(who: string): string
  notAllowed: string
  closed: string
  unknownHere: string
  pickSomething: string
  /**
   * A thread reply was recorded: as the Other answer to `question`, or as a
   * plan's Request changes feedback. `question` is escaped mrkdwn.
   */
  replyRecordedAsOther(question: string): string
  replyRecordedAsFeedback: string
  /** A thread reply that answers nothing, and what to use instead. */
  replyNotForBatch: string
  replyNotForApproval: string
  /** A thread reply refused for its text (`problem` is ours: empty, too long). */
  replyRefused(problem: string): string
  failedNotice: string
  /** Relay: the person's answer reached a host that no longer held the request. */
  undeliveredNotice: string
  /** Request changes went to the agent without `count` canvas comments whose authors may not answer the ask. */
  commentsLeftOut(count: number): string
  /** Form errors, shown under the input. */
  formBoth: string
  formInvalid: string
  /** Top-level text (notifications). `from` and `text` are escaped. */
  questionFrom(from: string, text: string): string
  questionsFrom(from: string, count: number, first: string): string
  planFrom(from: string, title: string): string
  approvalFrom(from: string, tool: string): string
  anAgent: string
  /** Quorum: before any approval. */
  quorumNeeds(required: number): string
  /** Quorum progress; `who` is mrkdwn (the approvers so far). */
  quorumProgress(given: number, required: number, who: string): string
  /** Ephemeral: the person's approval was counted. */
  approvalCounted(given: number, required: number): string
  /** Ephemeral: the person approved before; the same person never counts twice. */
  alreadyApproved(given: number, required: number): string
  /** Reminder in the thread; `who` and `link` are mrkdwn. */
  reminder(who: string, waited: string, link: string): string
  /** Escalation DM or mention; `who`, `link` are mrkdwn. */
  escalation(who: string, waited: string, link: string): string
  /** Shortest readable age: minutes, hours or days. */
  age(ms: number): string
  openMessage: string
  homeTitle: string
  /** How many asks wait: questions, plan reviews and tool approvals alike (the tab reads only the drawn ones' kinds). */
  homeIntro(count: number): string
  homeEmpty: string
  homeMore(count: number): string
  /** Home: how long an ask has waited; `age` from `age()`. */
  homeWaiting(age: string): string
  /** Home: where to answer an ask whose controls Home does not show; `where` is mrkdwn (`<#C…>`). */
  homeAnswerIn(where: string): string
  /** Home: an ask in a direct message, where `<#D…>` would not read as a name. */
  homeDirectMessage: string
}

const en: Words = {
  agent: 'Agent',
  session: 'session',
  expires: (date) => `expires ${date}`,
  dateFormat: '{date_short_pretty} at {time}',
  other: 'Other…',
  reply: 'Reply…',
  dismiss: 'Dismiss',
  skip: 'Skip',
  submit: 'Submit',
  next: 'Next',
  cancel: 'Cancel',
  send: 'Send',
  answer: 'Answer…',
  requestChanges: 'Request changes…',
  allowOnce: 'Allow once',
  reject: 'Reject',
  choose: 'Choose an answer…',
  chooseMany: 'Choose answers…',
  chooseOne: 'Choose one',
  chooseAny: 'Choose any',
  search: (count) => `Type to search ${count} options…`,
  blank: '(blank)',
  multiHint: 'Choose any number, then Submit.',
  replyHint: 'This question has no options: reply with text.',
  continuedInThread: (parts) => `Continued in the thread (${parts} ${parts === 1 ? 'part' : 'parts'}).`,
  part: (index, count) => `Part ${index} of ${count}`,
  restInFile: (filename) => `The rest is in the attached file ${filename}.`,
  fileTitle: 'Full text',
  batchIntro: (count) => `${count} questions. Tap Answer… to fill in the form; leave a question empty to skip it.`,
  batchSettledIntro: (count) => `${count} questions.`,
  carouselIntro: (count) => `${count} questions. Tap a choice on each card: your answers are sent once every card has one. Answer… opens the form to review them, skip one or write your own.`,
  choiceNoted: (question, label, chosen, total) =>
    `Noted for “${question}”: *${label}* (${chosen} of ${total} chosen). Choose on the other cards to send your answers, or open Answer… to review them.`,
  moreQuestions: (count) => `…and ${count} more ${count === 1 ? 'question' : 'questions'}: all of them are in the form (Answer…) and in the thread.`,
  otherTitle: 'Your answer',
  formTitle: (page, pages) => (pages > 1 ? `Answer (${page}/${pages})` : 'Answer'),
  feedbackTitle: 'Request changes',
  yourAnswer: 'Your answer',
  otherOptional: 'Or your own answer, instead of a choice above',
  formHint: 'Leave a question empty to skip it. Choose an option or write Other, not both.',
  tickedCarried:
    'The options you ticked are written in the box below: a typed answer replaces the ticks, so keep, edit or remove them there. To send only the ticks, cancel and use Submit.',
  feedbackLabel: 'What should change?',
  feedbackHint: 'Your feedback goes back to the agent, which keeps planning.',
  blankAnswer: 'Write an answer: it cannot be blank.',
  tooLong: (max) => `Keep it under ${max} characters.`,
  shortenedHere: 'Shortened here; the full text is in the message and its thread.',
  planReview: 'Plan review',
  toolApproval: 'Tool approval',
  tool: 'Tool',
  reason: 'Reason',
  callId: 'call',
  command: 'Command',
  arguments: 'Arguments',
  otherArguments: 'Other arguments',
  argumentsInThread: 'Shortened here; the full text is in the thread.',
  moreLines: (count) => `(+${count} more ${count === 1 ? 'line' : 'lines'})`,
  argumentsInFile: (filename) => `Shortened here; the full text is in the attached file ${filename}.`,
  argumentsNotSeen: 'The relay has not seen this call’s arguments yet; this card shows them if they arrive. Check them in the host’s web UI before allowing.',
  argumentsFileTitle: 'Tool call arguments',
  host: 'host',
  delivering: (what, who, when) => {
    const given = { answer: 'answer', approval: 'approval', changes: 'change request', dismissal: 'dismissal', allowed: '“Allow once”', rejected: 'rejection' }[what]
    return `:hourglass_flowing_sand: Delivering ${who}'s ${given} to the host… · ${when}`
  },
  answeredBy: (who, when) => `Answered by ${who} · ${when}`,
  approvedBy: (who, when) => `:white_check_mark: Approved by ${who} · ${when}`,
  changesRequestedBy: (who, when) => `:pencil2: Changes requested by ${who} · ${when}`,
  dismissedBy: (who, when) => `Dismissed by ${who} · ${when}`,
  aborted: (when, what) => (what === 'approval' ? `The agent withdrew this tool approval request · ${when}` : `The agent withdrew this question · ${when}`),
  expired: (when, what) => (what === 'approval' ? `This tool approval expired undecided · ${when}` : `This question expired unanswered · ${when}`),
  stopped: (when) => `Closed: the service stopped before an answer · ${when}`,
  settledElsewhere: (how, when, who) => {
    switch (how) {
      case 'answered':
        return `Answered outside Slack · ${when}`
      case 'cancelled':
        return `Cancelled outside Slack · ${when}`
      case 'allowed':
        return `:white_check_mark: Allowed outside Slack · ${when}`
      case 'rejected':
        return `:no_entry_sign: Rejected outside Slack · ${when}`
      case 'gone':
        return `No longer open on the host · ${when}`
      case 'undelivered':
        return `:warning: No longer open on the host; ${who === undefined ? 'the' : `${who}'s`} answer was not delivered · ${when}`
    }
  },
  allowedBy: (who, when) => `:white_check_mark: Allowed once by ${who} · ${when}`,
  rejectedBy: (who, when) => `:no_entry_sign: Rejected by ${who} · ${when}`,
  failed: (when) => `:warning: Something went wrong; this was not answered · ${when}`,
  skipped: 'skipped',
  moreAnswers: (count) => `…and ${count} more`,
  alreadyAnsweredBy: (who) => `This question was already answered by ${who}.`,
  alreadySettled: 'This question is already settled.',
  alreadyDismissedBy: (who) => `This question was already dismissed by ${who}.`,
  alreadyDecidedBy: (who) => `This was already decided by ${who}.`,
  notAllowed: 'You are not allowed to answer this question.',
  closed: 'This question was closed.',
  unknownHere:
    'Your answer was not recorded: this question came from another dsh-slack process that this one cannot see. Nothing changed; whoever runs dsh-slack can fix it by giving every process one shared state (see its log).',
  pickSomething: 'Choose at least one option first, or use Other….',
  replyRecordedAsOther: (question) => `Recorded your reply as the *Other* answer to “${question}”.`,
  replyRecordedAsFeedback: 'Recorded your reply as *Request changes* feedback on the plan: the agent revises it.',
  replyNotForBatch: 'A reply in the thread does not answer several questions at once: use *Answer…* on the message.',
  replyNotForApproval: 'A reply in the thread does not decide a tool approval: use *Allow once* or *Reject* on the message.',
  replyRefused: (problem) => `Your reply was not recorded: ${problem}`,
  failedNotice: 'Something went wrong and your answer was not recorded. Please try again in a moment.',
  undeliveredNotice:
    'Your answer was not delivered: the request was no longer open on the host (it restarted, or the request ended there while it could not be reached). Check the host’s web UI; if the agent asks again, answer the new message.',
  commentsLeftOut: (count) =>
    `${count === 1 ? 'One comment' : `${count} comments`} on the plan canvas ${count === 1 ? 'was' : 'were'} left out of what the agent received: ${count === 1 ? 'its author' : 'their authors'} may not answer this question.`,
  formBoth: 'Choose an option or write an Other answer, not both.',
  formInvalid: 'That choice is no longer available; choose again.',
  questionFrom: (from, text) => `${from} asks: ${text}`,
  questionsFrom: (from, count, first) => `${from} asks ${count} questions: ${first}`,
  planFrom: (from, title) => `${from} asks for a plan review: ${title}`,
  approvalFrom: (from, tool) => `${from} asks to use ${tool}`,
  anAgent: 'An agent',
  quorumNeeds: (required) => `Needs ${required} approvals from different people.`,
  quorumProgress: (given, required, who) => `${given} of ${required} approvals: ${who} — waiting for ${required - given === 1 ? 'one more' : `${required - given} more`}`,
  approvalCounted: (given, required) => `Your approval is counted: ${given} of ${required}.`,
  alreadyApproved: (given, required) => `You have already approved this (${given} of ${required}); it needs someone else.`,
  reminder: (who, waited, link) => `${who} this has waited ${waited} for an answer: ${link}`,
  escalation: (who, waited, link) => `${who} this has waited ${waited} without an answer, so it comes to you: ${link}`,
  age: (ms) => (ms < 3_600_000 ? `${Math.max(1, Math.round(ms / 60_000))} min` : ms < 86_400_000 ? `${Math.round(ms / 3_600_000)} h` : `${Math.round(ms / 86_400_000)} d`),
  openMessage: 'open the question',
  homeTitle: 'Waiting for you',
  homeIntro: (count) => `${count} ${count === 1 ? 'ask waits' : 'asks wait'} for you to answer or approve, newest first.`,

  homeEmpty: 'Nothing is waiting for you. New questions show up here as agents ask them.',
  homeMore: (count) => `…and ${count} older ${count === 1 ? 'one' : 'ones'}: see the channel.`,
  homeWaiting: (age) => `waiting ${age}`,
  homeAnswerIn: (where) => `Answer in ${where}`,
  homeDirectMessage: 'your direct messages',
}

const zhCN: Words = {
  agent: '智能体',
  session: '会话',
  expires: (date) => `${date} 过期`,
  dateFormat: '{date_short_pretty} {time}',
  other: '其他…',
  reply: '回复…',
  dismiss: '忽略',
  skip: '跳过',
  submit: '提交',
  next: '下一页',
  cancel: '取消',
  send: '发送',
  answer: '回答…',
  requestChanges: '要求修改…',
  allowOnce: '允许一次',
  reject: '拒绝',
  choose: '选择一个答案…',
  chooseMany: '选择答案…',
  chooseOne: '选择一项',
  chooseAny: '可选多项',
  search: (count) => `输入以搜索 ${count} 个选项…`,
  blank: '（空）',
  multiHint: '可多选，选好后点提交。',
  replyHint: '这个问题没有选项：请用文字回复。',
  continuedInThread: (parts) => `其余内容见消息串（共 ${parts} 部分）。`,
  part: (index, count) => `第 ${index}/${count} 部分`,
  restInFile: (filename) => `其余内容见附件 ${filename}。`,
  fileTitle: '全文',
  batchIntro: (count) => `共 ${count} 个问题。点“回答…”填写表单；留空即跳过该问题。`,
  batchSettledIntro: (count) => `共 ${count} 个问题。`,
  carouselIntro: (count) => `共 ${count} 个问题。在每张卡片上点一个选项：每张卡片都选好后即提交。点“回答…”打开表单，可检查、跳过或自己填写。`,
  choiceNoted: (question, label, chosen, total) => `已记下“${question}”：*${label}*（已选 ${chosen}/${total}）。在其他卡片上继续选择即可提交，或点“回答…”检查。`,
  moreQuestions: (count) => `……另有 ${count} 个问题：全部问题都在表单（回答…）和消息串中。`,
  otherTitle: '你的回答',
  formTitle: (page, pages) => (pages > 1 ? `回答（${page}/${pages}）` : '回答'),
  feedbackTitle: '要求修改',
  yourAnswer: '你的回答',
  otherOptional: '或者填写自己的回答，代替上面的选择',
  formHint: '留空即跳过该问题。选择选项或填写“其他”，二选一。',
  tickedCarried: '你勾选的选项已写在下面的文本框中：填写的回答会取代勾选，请在框中保留、修改或删除它们。若只想发送勾选，请取消并点“提交”。',
  feedbackLabel: '需要修改什么？',
  feedbackHint: '你的意见会发回给智能体，它会继续规划。',
  blankAnswer: '请填写回答：不能为空。',
  tooLong: (max) => `请不要超过 ${max} 个字符。`,
  shortenedHere: '此处为节选；全文见消息及其消息串。',
  planReview: '计划审阅',
  toolApproval: '工具审批',
  tool: '工具',
  reason: '原因',
  callId: '调用',
  command: '命令',
  arguments: '参数',
  otherArguments: '其他参数',
  argumentsInThread: '此处为节选；全文见消息串。',
  moreLines: (count) => `（另有 ${count} 行）`,
  argumentsInFile: (filename) => `此处为节选；全文见附件 ${filename}。`,
  argumentsNotSeen: '中继尚未看到这次调用的参数；参数到达后会显示在这张卡片上。允许之前请在主机的网页界面中查看。',
  argumentsFileTitle: '工具调用参数',
  host: '主机',
  delivering: (what, who, when) => {
    const given = { answer: '回答', approval: '批准', changes: '修改意见', dismissal: '忽略', allowed: '“允许一次”', rejected: '拒绝' }[what]
    return `:hourglass_flowing_sand: 正在把 ${who} 的${given}送达主机… · ${when}`
  },
  answeredBy: (who, when) => `${who} 已回答 · ${when}`,
  approvedBy: (who, when) => `:white_check_mark: ${who} 已批准 · ${when}`,
  changesRequestedBy: (who, when) => `:pencil2: ${who} 要求修改 · ${when}`,
  dismissedBy: (who, when) => `${who} 已忽略 · ${when}`,
  aborted: (when, what) => (what === 'approval' ? `智能体已撤回这个工具审批请求 · ${when}` : `智能体已撤回这个问题 · ${when}`),
  expired: (when, what) => (what === 'approval' ? `这个工具审批已过期，无人决定 · ${when}` : `这个问题已过期，无人回答 · ${when}`),
  stopped: (when) => `已关闭：服务在回答前停止 · ${when}`,
  settledElsewhere: (how, when, who) => {
    switch (how) {
      case 'answered':
        return `已在 Slack 之外回答 · ${when}`
      case 'cancelled':
        return `已在 Slack 之外取消 · ${when}`
      case 'allowed':
        return `:white_check_mark: 已在 Slack 之外允许 · ${when}`
      case 'rejected':
        return `:no_entry_sign: 已在 Slack 之外拒绝 · ${when}`
      case 'gone':
        return `主机上已不再开放 · ${when}`
      case 'undelivered':
        return `:warning: 主机上已不再开放；${who === undefined ? '' : `${who} 的`}回答未送达 · ${when}`
    }
  },
  allowedBy: (who, when) => `:white_check_mark: ${who} 已允许一次 · ${when}`,
  rejectedBy: (who, when) => `:no_entry_sign: ${who} 已拒绝 · ${when}`,
  failed: (when) => `:warning: 出错了；这个问题没有被回答 · ${when}`,
  skipped: '已跳过',
  moreAnswers: (count) => `……另有 ${count} 项`,
  alreadyAnsweredBy: (who) => `这个问题已由 ${who} 回答。`,
  alreadySettled: '这个问题已经结束。',
  alreadyDismissedBy: (who) => `这个问题已被 ${who} 忽略。`,
  alreadyDecidedBy: (who) => `这已由 ${who} 决定。`,
  notAllowed: '你没有权限回答这个问题。',
  closed: '这个问题已关闭。',
  unknownHere: '你的回答没有被记录：这个问题来自另一个 dsh-slack 进程，当前进程看不到它。问题本身没有变化；运行 dsh-slack 的人可以让所有进程共用同一个状态存储来解决（见日志）。',
  pickSomething: '请先至少选择一个选项，或使用“其他…”。',
  replyRecordedAsOther: (question) => `已将你的回复记为“${question}”的*其他*答案。`,
  replyRecordedAsFeedback: '已将你的回复记为对计划的*要求修改*意见：智能体会据此修改。',
  replyNotForBatch: '消息串中的回复不能同时回答多个问题：请使用消息上的*回答…*。',
  replyNotForApproval: '消息串中的回复不能决定工具审批：请使用消息上的*允许一次*或*拒绝*。',
  replyRefused: (problem) => `你的回复未被记录：${problem}`,
  failedNotice: '出错了，你的回答没有被记录，请稍后重试。',
  undeliveredNotice: '你的回答未送达：主机上这个请求已不再开放（主机重启了，或在无法连接期间请求已结束）。请查看主机的网页界面；如果智能体再次提问，请回答新的消息。',
  commentsLeftOut: (count) => `计划画布上有 ${count} 条评论没有发给智能体：其作者无权回答这个问题。`,
  formBoth: '请选择一个选项或填写“其他”，不要同时填写。',
  formInvalid: '这个选项已不可用，请重新选择。',
  questionFrom: (from, text) => `${from} 提问：${text}`,
  questionsFrom: (from, count, first) => `${from} 提出 ${count} 个问题：${first}`,
  planFrom: (from, title) => `${from} 请你审阅计划：${title}`,
  approvalFrom: (from, tool) => `${from} 请求使用 ${tool}`,
  anAgent: '一个智能体',
  quorumNeeds: (required) => `需要 ${required} 位不同成员批准。`,
  quorumProgress: (given, required, who) => `已批准 ${given}/${required}：${who} — 还需 ${required - given} 位`,
  approvalCounted: (given, required) => `你的批准已计入：${given}/${required}。`,
  alreadyApproved: (given, required) => `你已经批准过（${given}/${required}）；还需要其他成员批准。`,
  reminder: (who, waited, link) => `${who} 这个问题已等待 ${waited}：${link}`,
  escalation: (who, waited, link) => `${who} 这个问题已等待 ${waited} 仍无人回答，现转交给你：${link}`,
  age: (ms) => (ms < 3_600_000 ? `${Math.max(1, Math.round(ms / 60_000))} 分钟` : ms < 86_400_000 ? `${Math.round(ms / 3_600_000)} 小时` : `${Math.round(ms / 86_400_000)} 天`),
  openMessage: '打开问题',
  homeTitle: '等你回答',
  homeIntro: (count) => `有 ${count} 项等你回答或批准，最新的在前。`,

  homeEmpty: '目前没有等你回答的问题。智能体提问后会显示在这里。',
  homeMore: (count) => `……另有 ${count} 个较早的问题：请到频道查看。`,
  homeWaiting: (age) => `已等待 ${age}`,
  homeAnswerIn: (where) => `请在 ${where} 回答`,
  homeDirectMessage: '你的私信',
}

const WORDS: Record<Locale, Words> = { en, 'zh-CN': zhCN }

/** The words for a locale; an unknown locale (a config typo) falls back to English. */
export function wordsFor(locale: Locale): Words {
  return WORDS[locale] ?? en
}
