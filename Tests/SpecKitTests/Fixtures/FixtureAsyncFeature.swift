import Foundation

/// A main-actor view model whose output arrives later, checked both ways.
@MainActor
final class FixtureCounterViewModel {
    private(set) var count = 0
    let counts = TestObserver<Int>()

    func incrementLater() {
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.05) {
            MainActor.assumeIsolated {
                self.count += 1
                self.counts.send(self.count)
            }
        }
    }

    func incrementInTask() {
        Task { @MainActor in
            try? await Task.sleep(nanoseconds: 50_000_000)
            self.count += 1
            self.counts.send(self.count)
        }
    }
}

final class FixtureAsyncFeature: FeatureSpec {
    override func testFeature() {
        guard Fixtures.enabled else { return }
        Feature("Async", tags: "fixture") {
            var vm: FixtureCounterViewModel!
            beforeEach { vm = FixtureCounterViewModel() }

            Scenario("sync eventually sees main-queue work") {
                When("the count increments later") { vm.incrementLater() }
                Then("the count eventually is 1") { expect(vm.count).toEventually(equal(1), timeout: 5) }
            }
            Scenario("sync eventually sees main-actor task work") {
                When("the count increments in a task") { vm.incrementInTask() }
                Then("the observer eventually saw 1") { expect(vm.counts.values).toEventually(equal([1]), timeout: 5) }
            }
            Scenario("async eventually sees main-actor task work") {
                When("the count increments in a task") { vm.incrementInTask() }
                await Then("the count eventually is 1") { await expect(vm.count).toEventually(equal(1), timeout: 5) }
                And("it never reaches 2") { vm.counts.assertValues([1]) }
            }
        }
    }
}
