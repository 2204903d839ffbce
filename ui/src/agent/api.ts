// Typed calls to the conversation, Settings, Privacy and Doctor commands (src-tauri/src/agent/commands.rs,
// privacy.rs).
import { Channel, invoke } from "@tauri-apps/api/core";
import type {
  ConnectionTestParams,
  ConnectionTestResponse,
  ConversationListResponse,
  ConversationNotification,
  ConversationOpenResponse,
  ConversationSendParams,
  ConversationSendResponse,
  ConversationStopResponse,
  DoctorGetResponse,
  HandoffSaveResponse,
  PrivacyGetResponse,
  PrivacySaveParams,
  SettingsGetResponse,
  SettingsSaveParams,
} from "../bindings";

export const agentApi = {
  settings: {
    get: () => invoke<SettingsGetResponse>("settings_get"),
    save: (params: SettingsSaveParams) => invoke<SettingsGetResponse>("settings_save", { params }),
  },
  connection: {
    test: (params: ConnectionTestParams) => invoke<ConnectionTestResponse>("connection_test", { params }),
  },
  conversation: {
    list: () => invoke<ConversationListResponse>("conversation_list"),
    open: (id: string) => invoke<ConversationOpenResponse>("conversation_open", { params: { id } }),
    send: (params: ConversationSendParams, onNotification: (n: ConversationNotification) => void) => {
      const onEvent = new Channel<ConversationNotification>();
      onEvent.onmessage = onNotification;
      return invoke<ConversationSendResponse>("conversation_send", { params, onEvent });
    },
    stop: (conversationId: string) =>
      invoke<ConversationStopResponse>("conversation_stop", { params: { conversationId } }),
    answer: (questionId: number, answer: string | null) =>
      invoke<null>("conversation_answer", { params: { questionId, answer } }),
  },
  doctor: {
    get: () => invoke<DoctorGetResponse>("doctor_get"),
  },
  privacy: {
    get: () => invoke<PrivacyGetResponse>("privacy_get"),
    save: (params: PrivacySaveParams) => invoke<PrivacyGetResponse>("privacy_save", { params }),
  },
  handoff: {
    save: (path: string, destination: string) =>
      invoke<HandoffSaveResponse>("handoff_save", { params: { path, destination } }),
    /** Opens a file with the default application, or reveals it in the file manager. */
    open: (path: string, reveal: boolean) => invoke<unknown>("tree_open", { params: { path, reveal } }),
  },
};
