import Foundation
import TextScreen

/// What the stories screen tells its view model.
@MainActor
public protocol StoriesViewModelInputs {
    /// The screen appeared: load the first page.
    func viewDidLoad()
    /// Pull to refresh: load the first page again, keeping the list while it loads.
    func refresh()
    /// The retry button of the error state.
    func retryButtonTapped()
    /// A row is about to be shown; the last one loads the next page.
    func willDisplayRow(_ row: Int, outOf total: Int)
    /// The upvote arrow of a story.
    func upvoteButtonTapped(storyID: Int)
    /// A story was tapped: open its link.
    func storyTapped(storyID: Int)
}

/// What the stories screen shows.
@MainActor
public protocol StoriesViewModelOutputs {
    /// The rows, newest first.
    var rows: Property<[StoryRow]> { get }
    /// The first load (or a retry) is in flight and nothing is shown yet.
    var isLoading: Property<Bool> { get }
    /// A pull to refresh is in flight.
    var isRefreshing: Property<Bool> { get }
    /// The next page is loading under the last row.
    var isLoadingNextPage: Property<Bool> { get }
    /// The API answered with no stories at all.
    var showEmptyState: Property<Bool> { get }
    /// The list could not be loaded: the error state's message, with a retry button.
    var errorMessage: Property<String?> { get }
    /// A passing message (a failed upvote, refresh or next page) while the list stays.
    var showMessage: Signal<String> { get }
    /// Open this link in the browser.
    var openURL: Signal<URL> { get }
    /// Upvoting needs a reader: show the login screen.
    var goToLogin: Signal<Void> { get }
    /// Everything the screen draws, in one value.
    var state: Property<StoriesViewModel.State> { get }
}

/// The front page: loads stories page by page, refreshes, and upvotes optimistically.
///
/// ```swift
/// let vm = StoriesViewModel()
/// vm.outputs.rows.observe { rows in tableView.reload(rows) }
/// vm.inputs.viewDidLoad()                       // GET /api/v1/stories?page=1
/// vm.inputs.upvoteButtonTapped(storyID: 101)    // the count goes up at once; back down if it fails
/// ```
/// Reads ``AppEnvironment/current`` when each request starts; rows are formatted with that
/// environment's language, clock and time zone.
@MainActor
public final class StoriesViewModel: StoriesViewModelInputs, StoriesViewModelOutputs {
    /// What the screen draws.
    public struct State: Sendable, Equatable {
        public var rows: [StoryRow] = []
        public var isLoading = false
        public var isRefreshing = false
        public var isLoadingNextPage = false
        public var showEmptyState = false
        public var errorMessage: String?

        public init(
            rows: [StoryRow] = [], isLoading: Bool = false, isRefreshing: Bool = false, isLoadingNextPage: Bool = false,
            showEmptyState: Bool = false, errorMessage: String? = nil
        ) {
            self.rows = rows
            self.isLoading = isLoading
            self.isRefreshing = isRefreshing
            self.isLoadingNextPage = isLoadingNextPage
            self.showEmptyState = showEmptyState
            self.errorMessage = errorMessage
        }
    }

    public var inputs: any StoriesViewModelInputs { self }
    public var outputs: any StoriesViewModelOutputs { self }

    public let rows: Property<[StoryRow]>
    public let isLoading: Property<Bool>
    public let isRefreshing: Property<Bool>
    public let isLoadingNextPage: Property<Bool>
    public let showEmptyState: Property<Bool>
    public let errorMessage: Property<String?>
    public var showMessage: Signal<String> { messages.signal }
    public var openURL: Signal<URL> { urls.signal }
    public var goToLogin: Signal<Void> { loginRequests.signal }
    public let state: Property<State>

    private let rowsStore = MutableProperty<[StoryRow]>([])
    private let loadingStore = MutableProperty(false)
    private let refreshingStore = MutableProperty(false)
    private let nextPageStore = MutableProperty(false)
    private let emptyStore = MutableProperty(false)
    private let errorStore = MutableProperty<String?>(nil)
    private let stateStore = MutableProperty(State())
    private let messages = Signal<String>.pipe()
    private let urls = Signal<URL>.pipe()
    private let loginRequests = Signal<Void>.pipe()

    // The model behind the state.
    private var stories: [Story] = []
    private var nextPage: Int?
    private var upvoted: Set<Int> = []
    private var votesInFlight: Set<Int> = []
    private var environment = AppEnvironment.current
    /// Bumped by every first-page load, so an older page that arrives late is dropped.
    private var generation = 0
    private var isFirstPageInFlight = false

    public init() {
        rows = Property(rowsStore)
        isLoading = Property(loadingStore)
        isRefreshing = Property(refreshingStore)
        isLoadingNextPage = Property(nextPageStore)
        showEmptyState = Property(emptyStore)
        errorMessage = Property(errorStore)
        state = Property(stateStore)
    }

    // MARK: Inputs

    public func viewDidLoad() {
        loadFirstPage(refreshing: false)
    }

    public func refresh() {
        loadFirstPage(refreshing: true)
    }

    public func retryButtonTapped() {
        loadFirstPage(refreshing: false)
    }

    public func willDisplayRow(_ row: Int, outOf total: Int) {
        let current = stateStore.value
        guard row >= total - 1, let page = nextPage, !isFirstPageInFlight, !current.isLoadingNextPage else { return }
        let environment = AppEnvironment.current
        let generation = generation
        publish { $0.isLoadingNextPage = true }
        Task {
            do throws(APIError) {
                let result = try await environment.api.stories(page: page)
                guard generation == self.generation else { return }
                let known = Set(stories.map(\.id))
                stories += result.stories.filter { !known.contains($0.id) }
                nextPage = result.nextPage
                self.environment = environment
                publish { $0.isLoadingNextPage = false }
            } catch {
                guard generation == self.generation else { return }
                publish { $0.isLoadingNextPage = false }
                messages.send(ErrorMessages.message(for: error, strings: environment.strings))
            }
        }
    }

    public func upvoteButtonTapped(storyID: Int) {
        let environment = AppEnvironment.current
        guard environment.api.accessToken != nil || environment.storedAccessToken != nil else {
            loginRequests.send(())
            return
        }
        guard !upvoted.contains(storyID), !votesInFlight.contains(storyID), stories.contains(where: { $0.id == storyID }) else {
            return
        }
        let api = environment.api.accessToken == nil ? environment.api.authorized(with: environment.storedAccessToken) : environment.api
        votesInFlight.insert(storyID)
        upvoted.insert(storyID)
        changeVotes(of: storyID, by: 1)
        publish { _ in }
        Task {
            do throws(APIError) {
                _ = try await api.upvote(storyID: storyID)
                votesInFlight.remove(storyID)
            } catch {
                votesInFlight.remove(storyID)
                upvoted.remove(storyID)
                changeVotes(of: storyID, by: -1)
                publish { _ in }
                messages.send(environment.strings("stories.upvote.failed"))
            }
        }
    }

    public func storyTapped(storyID: Int) {
        guard let story = stories.first(where: { $0.id == storyID }) else { return }
        urls.send(story.url)
    }

    // MARK: Loading

    private func loadFirstPage(refreshing: Bool) {
        guard !isFirstPageInFlight else { return }
        let environment = AppEnvironment.current
        generation += 1
        let generation = generation
        isFirstPageInFlight = true
        publish { state in
            state.isLoadingNextPage = false
            if refreshing && !stories.isEmpty {
                state.isRefreshing = true
            } else {
                state.isLoading = true
                state.errorMessage = nil
                state.showEmptyState = false
            }
        }
        Task {
            do throws(APIError) {
                let page = try await environment.api.stories(page: 1)
                guard generation == self.generation else { return }
                stories = page.stories
                nextPage = page.nextPage
                self.environment = environment
                finishFirstPage { state in
                    state.showEmptyState = page.stories.isEmpty
                    state.errorMessage = nil
                }
            } catch {
                guard generation == self.generation else { return }
                let message = ErrorMessages.message(for: error, strings: environment.strings)
                if stories.isEmpty {
                    finishFirstPage { $0.errorMessage = message }
                } else {
                    finishFirstPage { _ in }
                    messages.send(message)
                }
            }
        }
    }

    private func finishFirstPage(_ change: (inout State) -> Void) {
        isFirstPageInFlight = false
        publish { state in
            state.isLoading = false
            state.isRefreshing = false
            change(&state)
        }
    }

    private func changeVotes(of storyID: Int, by delta: Int) {
        guard let index = stories.firstIndex(where: { $0.id == storyID }) else { return }
        stories[index].voteCount += delta
    }

    /// Rebuilds the rows from the model, applies `change`, and sends every output that changed.
    private func publish(_ change: (inout State) -> Void) {
        var next = stateStore.value
        next.rows = stories.map { StoryRow(story: $0, isUpvoted: upvoted.contains($0.id), environment: environment) }
        change(&next)
        rowsStore.value = next.rows
        loadingStore.value = next.isLoading
        refreshingStore.value = next.isRefreshing
        nextPageStore.value = next.isLoadingNextPage
        emptyStore.value = next.showEmptyState
        errorStore.value = next.errorMessage
        stateStore.value = next
    }
}
