// A file the agent handed over: previewed inline (compact), with Open, Reveal and Save as.
import { save } from "@tauri-apps/plugin-dialog";
import { FileView } from "../media/FileView";
import { bytes, problem, type Problem } from "../api";
import { agentApi } from "./api";

export function Handoff(props: {
  path: string;
  name: string;
  size: number;
  caption: string;
  version: number;
  onError: (e: Problem) => void;
  onSelect: (path: string) => void;
}) {
  const act = (job: () => Promise<unknown>) => job().catch((e) => props.onError(problem(e)));
  return (
    <figure class="handoff" data-path={props.path}>
      <FileView path={props.path} compact version={props.version} />
      <figcaption>
        <div class="handoff-title">
          <button class="link handoff-name" title="Show in the preview" onClick={() => props.onSelect(props.path)}>
            {props.name}
          </button>
          <span class="muted">{bytes(props.size)}</span>
        </div>
        {props.caption && <div class="handoff-caption">{props.caption}</div>}
        <div class="handoff-actions">
          <button class="secondary small" onClick={() => act(() => agentApi.handoff.open(props.path, false))}>
            Open
          </button>
          <button class="secondary small" onClick={() => act(() => agentApi.handoff.open(props.path, true))}>
            Reveal
          </button>
          <button
            class="secondary small"
            onClick={() =>
              act(async () => {
                const target = await save({ defaultPath: props.name, title: `Save ${props.name} as` });
                if (target) await agentApi.handoff.save(props.path, target);
              })
            }
          >
            Save as…
          </button>
        </div>
      </figcaption>
    </figure>
  );
}
