package com.acme.fulfil.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * The stack as each way of deploying it synthesizes it: the deploy workflow on a tag and on a manual
 * dispatch (.github/workflows/deploy.yml, its cdk commands with the context they pass, each expression as
 * that trigger fills it: a tag has no inputs, and an environment variable may be unset), the one way to
 * deploy: the runbook (docs/runbook.md, section 10) starts the workflow and deploys nothing itself. Both
 * give what infra/cdk.json commits: the same subscription, secret, partner and mapping state, and the same
 * retained queues. The committed file leaves the environment's values to the team, so here, as in every
 * infra test, they are {@link Synth}'s stand-ins.
 */
class DeployPathsTest {
  private static final Path REPOSITORY = Path.of("..");
  private static final Path WORKFLOW = REPOSITORY.resolve(".github/workflows/deploy.yml");
  private static final Path RUNBOOK = REPOSITORY.resolve("docs/runbook.md");
  private static final Pattern CONTEXT_ARG = Pattern.compile("^(?:-c|--context)(?:=(.*))?$");

  /** How a trigger fills the workflow's expressions and variables. */
  private enum Trigger {
    TAG, DISPATCH;

    String fill(String value) {
      return value
          .replaceAll("\\$\\{\\{\\s*inputs\\.(\\w+)\\s*}}", this == DISPATCH ? "dispatched-$1" : "")
          .replaceAll("\\$\\{\\{[^}]*}}", "")
          .replaceAll("\\$\\{?(\\w+)}?", "");
    }
  }

  @Test
  void theWorkflowTakesNoInputAndRunsOnATagOrADispatch() {
    String workflow = read(WORKFLOW);
    assertThat(workflow).contains("workflow_dispatch:", "tags:", "\"v*\"");
    assertThat(workflow).as("a dispatch input is a value from whoever dispatches").doesNotContainPattern("(?m)^\\s+inputs:");
  }

  /** Synthesized first with no AWS credentials in the job, then that assembly deployed as it is, with no build in between. */
  @Test
  void theWorkflowSynthesizesWithoutCredentialsAndDeploysTheAssembly() {
    String workflow = read(WORKFLOW);
    String synthJob = workflow.substring(workflow.indexOf("\n  synth:"), workflow.indexOf("\n  deploy:"));
    assertThat(synthJob).contains("npx cdk synth").doesNotContain("id-token", "configure-aws-credentials", "secrets.");
    assertThat(cdkCommands(workflow, "deploy")).singleElement().satisfies(deploy ->
        assertThat(String.join(" ", deploy)).contains("deploy --app cdk.out"));
  }

  /**
   * A deploy from a laptop skips the suite, the environment's approval, the workflow's lock and the page drill:
   * the runbook starts the workflow, and no command of its deploys or bootstraps anything itself.
   */
  @Test
  void theRunbookDeploysOnlyThroughTheWorkflow() {
    assertThat(runbookDeploy()).contains("gh workflow run deploy.yml");
    assertThat(cdkCommands(shBlocks(read(RUNBOOK)), "deploy", "bootstrap", "destroy")).isEmpty();
  }

  /**
   * The drill's command is built before the job assumes the deploy role (no build runs with its credentials), and
   * runs after cdk deploy in the same job, so a deploy whose page reaches no one fails the run.
   */
  @Test
  void theDeployJobBuildsTheDrillWithoutCredentialsAndDrillsAfterTheDeploy() {
    String workflow = read(WORKFLOW);
    String deployJob = workflow.substring(workflow.indexOf("\n  deploy:"));
    int build = deployJob.indexOf("-pl ops -am package");
    int credentials = deployJob.indexOf("configure-aws-credentials");
    int deploy = deployJob.indexOf("npx cdk deploy");
    int drill = deployJob.indexOf("run: ./fulfil-ops drill");
    assertThat(build).as("./fulfil-ops built in the deploy job").isPositive().isLessThan(credentials);
    assertThat(drill).as("the drill after cdk deploy").isGreaterThan(deploy);
    assertThat(deployJob.substring(drill)).as("the drill step may not be allowed to fail")
        .doesNotContain("continue-on-error");
  }

  /** Every action not GitHub's own runner is pinned by a commit, so a moved tag cannot change what runs with the deploy role. */
  @Test
  void everyActionIsPinnedByCommit() {
    Matcher uses = Pattern.compile("uses:\\s*(\\S+)").matcher(read(WORKFLOW));
    List<String> actions = new ArrayList<>();
    while (uses.find()) {
      actions.add(uses.group(1));
    }
    assertThat(actions).isNotEmpty().allMatch(action -> action.matches("[\\w.-]+/[\\w.-]+@[0-9a-f]{40}"));
  }

  @Test
  void tagAndDispatchDeployWhatCdkJsonCommits() {
    Map<String, Object> committed = new LinkedHashMap<>(Synth.cdkJsonContext());
    committed.putAll(Synth.environmentSettings());
    Deployed expected = deployed(Map.of());
    assertThat(expected.subscriptions()).containsExactly((String) committed.get("alarmEmail"));
    assertThat(expected.secret()).isEqualTo(committed.get("partnerApiKeySecretArn"));
    assertThat(expected.partner()).isEqualTo(committed.get("partnerBaseUrl"));
    assertThat(expected.mappingEnabled()).isEqualTo(committed.get("mappingEnabled"));
    assertThat(expected.queuePolicies()).containsOnly("RetainExceptOnCreate/Retain").hasSize(2);
    assertThat(expected.terminationProtection()).isTrue();

    String workflow = read(WORKFLOW);
    for (Trigger trigger : List.of(Trigger.TAG, Trigger.DISPATCH)) {
      for (List<String> command : cdkCommands(workflow, "synth", "deploy")) {
        assertThat(deployed(context(command, trigger))).as("the workflow's %s on a %s", command, trigger).isEqualTo(expected);
      }
    }
  }

  /**
   * GitHub gives a job that names an environment the subject repo:OWNER/NAME:environment:NAME, so a trust
   * condition on a branch or a tag never matches it; the role trusts exactly the deploy job's environment.
   */
  @Test
  void theDeployRoleTrustsExactlyTheEnvironmentTheDeployJobNames() throws IOException {
    JsonNode template = new ObjectMapper().readTree(Path.of("deploy-role.template.json").toFile());
    JsonNode trust = template.at("/Resources/DeployRole/Properties/AssumeRolePolicyDocument/Statement/0");
    assertThat(trust.path("Action").asText()).isEqualTo("sts:AssumeRoleWithWebIdentity");
    JsonNode equals = trust.at("/Condition/StringEquals");
    assertThat(equals.path("token.actions.githubusercontent.com:aud").asText()).isEqualTo("sts.amazonaws.com");
    assertThat(equals.at("/token.actions.githubusercontent.com:sub/Fn::Sub").asText())
        .isEqualTo("repo:${Repository}:environment:${Environment}");
    assertThat(trust.path("Condition").size()).as("no StringLike widening the subject").isEqualTo(1);

    Matcher environment = Pattern.compile("\\n  deploy:[\\s\\S]*?\\n    environment: (\\S+)").matcher(read(WORKFLOW));
    assertThat(environment.find()).isTrue();
    assertThat(template.at("/Parameters/Environment/Default").asText()).isEqualTo(environment.group(1));
  }

  /** What on-call relies on, as one synthesized template has it. */
  record Deployed(List<String> subscriptions, String secret, String partner, Object mappingEnabled, List<String> queuePolicies,
      boolean terminationProtection) {}

  @SuppressWarnings("unchecked")
  private static Deployed deployed(Map<String, String> context) {
    FulfilOrderStack stack = Synth.stack(context);
    Template template = Template.fromStack(stack);
    List<String> subscriptions = template.findResources("AWS::SNS::Subscription").values().stream()
        .map(resource -> (String) ((Map<String, Object>) resource.get("Properties")).get("Endpoint")).toList();
    Map<String, Object> function = properties(template, "AWS::Lambda::Function");
    Map<String, Object> variables = (Map<String, Object>) ((Map<String, Object>) function.get("Environment")).get("Variables");
    assertThat(template.findResources("AWS::SecretsManager::Secret")).as("no secret created").isEmpty();
    List<String> queuePolicies = template.findResources("AWS::SQS::Queue").values().stream()
        .map(queue -> queue.get("DeletionPolicy") + "/" + queue.get("UpdateReplacePolicy")).toList();
    return new Deployed(subscriptions, (String) variables.get("PARTNER_API_KEY_SECRET_ID"), (String) variables.get("PARTNER_BASE_URL"),
        properties(template, "AWS::Lambda::EventSourceMapping").get("Enabled"), queuePolicies, stack.getTerminationProtection());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> properties(Template template, String type) {
    Map<String, Map<String, Object>> resources = template.findResources(type);
    assertThat(resources).as(type).hasSize(1);
    return (Map<String, Object>) resources.values().iterator().next().get("Properties");
  }

  /** The context a cdk command passes, as the trigger fills its values. */
  private static Map<String, String> context(List<String> command, Trigger trigger) {
    Map<String, String> context = new LinkedHashMap<>();
    for (int i = 0; i < command.size(); i++) {
      Matcher flag = CONTEXT_ARG.matcher(command.get(i));
      if (flag.matches()) {
        String pair = trigger.fill(flag.group(1) != null ? flag.group(1) : command.get(++i));
        int equals = pair.indexOf('=');
        context.put(pair.substring(0, equals), pair.substring(equals + 1));
      }
    }
    return context;
  }

  /** The {@code cdk} commands of a script whose subcommand is one of {@code subcommands}, each as its words. */
  private static List<List<String>> cdkCommands(String script, String... subcommands) {
    List<List<String>> commands = new ArrayList<>();
    for (String line : script.replace("\\\n", " ").split("\n")) {
      if (line.strip().startsWith("#") || line.strip().matches("(- )?name:.*")) {
        continue; // a comment, or a step's title: not run
      }
      for (String command : line.replaceFirst("^\\s*(?:- )?run:\\s*", "").split("&&|;|\\(|\\)|\\|")) {
        List<String> words = words(command);
        int cdk = words.indexOf("cdk");
        if (cdk >= 0 && cdk + 1 < words.size() && List.of(subcommands).contains(words.get(cdk + 1))) {
          commands.add(words.subList(cdk + 1, words.size()));
        }
      }
    }
    return commands;
  }

  /** Shell words, quotes removed; a redirection ends the command. */
  private static List<String> words(String command) {
    List<String> words = new ArrayList<>();
    Matcher word = Pattern.compile("\"([^\"]*)\"|'([^']*)'|(\\S+)").matcher(command.strip());
    while (word.find()) {
      String text = word.group(1) != null ? word.group(1) : word.group(2) != null ? word.group(2) : word.group(3);
      if (text.startsWith(">")) {
        break;
      }
      words.add(text);
    }
    return words;
  }

  /** Every sh block of a Markdown page, one after another. */
  private static String shBlocks(String page) {
    StringBuilder blocks = new StringBuilder();
    Matcher block = Pattern.compile("```sh\n([\\s\\S]*?)```").matcher(page);
    while (block.find()) {
      blocks.append(block.group(1));
    }
    return blocks.toString();
  }

  /** The first sh block of the runbook's "Deploy" section: the deploy command. */
  private static String runbookDeploy() {
    String runbook = read(RUNBOOK);
    String section = runbook.substring(runbook.indexOf("## 10. Deploy"));
    int start = section.indexOf("```sh\n") + "```sh\n".length();
    return section.substring(start, section.indexOf("```", start));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
