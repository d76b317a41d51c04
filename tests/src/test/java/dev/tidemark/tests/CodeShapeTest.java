package dev.tidemark.tests;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The size rules of the project's main code (every module's {@code src/main/java}, benchmarks included): no source
 * file over 400 lines and no method or constructor over 60 lines, counted from its declaration to its closing brace.
 * Tests are not held to it.
 */
class CodeShapeTest {
    private static final int MAX_FILE_LINES = 400;
    private static final int MAX_METHOD_LINES = 60;
    private static final List<Path> SOURCES = new ArrayList<>();

    @BeforeAll
    static void readMainSources() throws IOException {
        StaticJavaParser.getParserConfiguration().setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17);
        Path root = ProjectRoot.find();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path main : modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.walk(main)) {
                    files.filter(f -> f.toString().endsWith(".java")).forEach(SOURCES::add);
                }
            }
        }
        assertThat(SOURCES).as("main sources under " + root).hasSizeGreaterThan(100);
    }

    @Test
    void noMainSourceFileIsLongerThan400Lines() throws IOException {
        List<String> long_ = new ArrayList<>();
        for (Path file : SOURCES) {
            long lines = Files.readAllLines(file).size();
            if (lines > MAX_FILE_LINES) {
                long_.add(ProjectRoot.find().relativize(file) + ": " + lines + " lines");
            }
        }
        assertThat(long_).as("main source files over " + MAX_FILE_LINES + " lines").isEmpty();
    }

    @Test
    void noMainMethodIsLongerThan60Lines() throws IOException {
        List<String> long_ = new ArrayList<>();
        for (Path file : SOURCES) {
            CompilationUnit unit = StaticJavaParser.parse(file);
            for (CallableDeclaration<?> callable : unit.findAll(CallableDeclaration.class)) {
                int lines = lines(callable);
                if (lines > MAX_METHOD_LINES) {
                    long_.add(ProjectRoot.find().relativize(file) + ":" + callable.getBegin().orElseThrow().line
                            + " " + callable.getNameAsString() + ": " + lines + " lines");
                }
            }
        }
        assertThat(long_).as("main methods over " + MAX_METHOD_LINES + " lines").isEmpty();
    }

    private static int lines(Node node) {
        return node.getEnd().orElseThrow().line - node.getBegin().orElseThrow().line + 1;
    }
}
