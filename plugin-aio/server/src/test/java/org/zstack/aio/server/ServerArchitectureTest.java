package org.zstack.aio.server;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** The server's feature packages depend on each other one way only, and the server never reaches into the agent. */
class ServerArchitectureTest {

    private static final JavaClasses SERVER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.zstack.aio.server");

    @Test
    void featurePackagesHaveNoCycles() {
        slices().matching("org.zstack.aio.server.(*)..").should().beFreeOfCycles().check(SERVER);
    }

    @Test
    void theServerTalksToAgentsOnlyThroughTheWireApi() {
        noClasses().should().dependOnClassesThat(resideInAPackage("org.zstack.aio.agent..")
                .and(resideOutsideOfPackage("org.zstack.aio.agent.api.."))).check(SERVER);
    }
}
