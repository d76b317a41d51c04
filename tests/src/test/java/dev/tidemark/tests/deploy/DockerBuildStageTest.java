package dev.tidemark.tests.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's build stage replayed without a Docker engine: each {@code COPY} of the Dockerfile's first stage copies
 * from this repository into an empty folder (the stage's {@code WORKDIR}), then the stage's {@code RUN} command runs
 * there, offline (from the local Maven repository, which {@code docker build} fills from Maven Central instead). So a
 * module the root POM lists but the stage does not copy, or a file the build needs that it leaves out, fails here as
 * it would fail {@code docker build}. {@link ComposeSmokeIT} builds the image where an engine answers.
 */
class DockerBuildStageTest {
    private final ComposeProject project = ComposeProject.find();

    @Test
    void theBuildStageBuildsTheCommandFromExactlyWhatItCopies(@TempDir Path workdir) throws IOException {
        List<String> run = new ArrayList<>();
        for (String line : buildStage(Files.readAllLines(project.root().resolve("Dockerfile")))) {
            String[] parts = line.trim().split("\\s+");
            if (parts[0].equals("COPY")) {
                String dest = parts[parts.length - 1];
                for (int i = 1; i < parts.length - 1; i++) {
                    Path from = project.root().resolve(parts[i]);
                    Path to = dest.endsWith("/") ? workdir.resolve(dest).resolve(from.getFileName().toString()) : workdir.resolve(dest);
                    ComposeFileTest.copy(from, to.normalize());
                }
            } else if (parts[0].equals("RUN")) {
                run.add(line.trim().substring("RUN".length()).trim());
            }
        }
        assertThat(run).as("RUN commands of the build stage").hasSize(1);
        ComposeProject.Result build = ComposeProject.runIn(workdir, Duration.ofMinutes(8), "sh", "-c", run.get(0) + " -o");
        assertThat(build.exit()).as("`%s` on the build stage's files; output:%n%s", run.get(0), build.output()).isZero();
        assertThat(workdir.resolve("cli/target/tidemark.jar")).as("the jar the runtime stage copies").isRegularFile();
        assertThat(workdir.resolve("cli/target/lib")).as("its libraries").isDirectory();
    }

    /** The lines of the first stage: from its {@code FROM} up to the next one. */
    private static List<String> buildStage(List<String> dockerfile) {
        List<String> stage = new ArrayList<>();
        int froms = 0;
        for (String line : dockerfile) {
            if (line.startsWith("FROM ") && ++froms == 2) {
                break;
            }
            if (froms == 1 && !line.trim().startsWith("#")) {
                stage.add(line);
            }
        }
        return stage;
    }
}
