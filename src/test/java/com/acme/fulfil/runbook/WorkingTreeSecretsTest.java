package com.acme.fulfil.runbook;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What the runbook's commands write into the directory they run in holds customer data (drop's archive,
 * a DLQ batch read by hand) or the partner's key. On-call runs them in the checkout, and the runbook asks
 * them to commit infra/cdk.json from there: none of those files may be committed by accident. Git is
 * asked, as {@code git add} would ask it, for each file the runbook's commands write, at the top of the
 * checkout and below it.
 */
class WorkingTreeSecretsTest {
  /** A shell redirection or an AWS CLI {@code file://} argument: the file a command writes or reads a secret from. */
  private static final Pattern WRITTEN = Pattern.compile("(?:>>?\\s*|file://)([\\w.-]+\\.\\w+)");
  /** drop's archive directory when it is not given one (FulfilOps' drop command). */
  private static final String DROP_ARCHIVE = "dlq-archive/ORD-0001-message.json";

  private final Repository repository = Repository.containingThisTest();

  @Test
  void nothingTheRunbookWritesCanBeCommittedByAccident() throws Exception {
    Set<String> written = new TreeSet<>();
    Matcher files = WRITTEN.matcher(String.join("\n", repository.runbook().sections().stream()
        .flatMap(section -> section.codeBlocks("sh").stream()).toList()));
    while (files.find()) {
      written.add(files.group(1));
    }
    assertThat(written).as("files the runbook's commands write").contains("partner-key.txt", "dlq-batch.json", "dlq-archive.jsonl");
    written.add(DROP_ARCHIVE);

    List<String> committable = new ArrayList<>();
    for (String file : written) {
      for (String where : List.of(file, "infra/" + file, "ops/" + file)) {
        if (!ignored(where)) {
          committable.add(where);
        }
      }
    }
    assertThat(committable).as("files git would add with the rest of the checkout").isEmpty();
  }

  /** Whether {@code git add} leaves the path out: {@code git check-ignore} exits 0 for an ignored path. */
  private boolean ignored(String path) throws IOException, InterruptedException {
    Process git = new ProcessBuilder("git", "-C", repository.root().toString(), "check-ignore", "--no-index", "-q", path)
        .redirectErrorStream(true).start();
    String said = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int status = git.waitFor();
    assertThat(status).as("git check-ignore %s: %s", path, said).isIn(0, 1);
    return status == 0;
  }
}
