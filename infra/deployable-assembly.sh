#!/usr/bin/env bash
# Refuses a synthesized assembly that cdk deploy must not deploy with these credentials, before it runs:
#   - a file or container image asset built by an `executable`: cdk deploy runs that command on this machine
#     with the deploy credentials, and the stack's assets are files it only uploads;
#   - an assembly CI synthesized with its stand-in settings (the template's FulfilOrderCiSynthOnly metadata);
#   - a stack whose environment is not the account and region these credentials are for: infra/cdk.json
#     commits the one account and region, and synth writes them into the assembly.
# Usage: infra/deployable-assembly.sh CDK_OUT ACCOUNT REGION   (the deploy workflow passes the caller's account)
set -euo pipefail
if [ "$#" -ne 3 ]; then
  echo "usage: $0 CDK_OUT ACCOUNT REGION" >&2
  exit 2
fi
out="$1" account="$2" region="$3"
if [ ! -f "$out/manifest.json" ]; then
  echo "$out has no manifest.json: not a synthesized assembly" >&2
  exit 2
fi
problems=()
while IFS= read -r -d '' manifest; do
  while IFS= read -r asset; do
    problems+=("$(basename "$manifest") declares an asset built by a command ($asset): cdk deploy would run it with the deploy credentials")
  done < <(jq -r '[(.files // {}), (.dockerImages // {})] | add | to_entries[]
    | select(.value.source.executable != null) | "\(.key): \(.value.source.executable | join(" "))"' "$manifest")
done < <(find "$out" -name '*.assets.json' -print0)
while IFS= read -r stack; do
  template="$out/$(jq -r --arg stack "$stack" '.artifacts[$stack].properties.templateFile' "$out/manifest.json")"
  if jq -e '.Metadata.FulfilOrderCiSynthOnly != null' "$template" > /dev/null; then
    problems+=("$stack was synthesized by CI with stand-in settings: synthesize it from the committed infra/cdk.json")
  fi
  environment=$(jq -r --arg stack "$stack" '.artifacts[$stack].environment' "$out/manifest.json")
  if [ "$environment" != "aws://$account/$region" ]; then
    problems+=("$stack is for $environment, and these credentials are for account $account in $region: deploy only to the account and region infra/cdk.json commits")
  fi
done < <(jq -r '.artifacts | to_entries[] | select(.value.type == "aws:cloudformation:stack") | .key' "$out/manifest.json")
if [ "${#problems[@]}" -gt 0 ]; then
  echo "refused: $out may not be deployed:" >&2
  printf '  - %s\n' "${problems[@]}" >&2
  exit 1
fi
echo "$out is deployable to aws://$account/$region: no asset built by a command, no stand-in settings"
