// Five buttons, "Rate 1 out of 5" to "Rate 5 out of 5"; the chosen one is pressed.

export function Rating({ rating, onRate }: { rating: number | null; onRate(rating: number): void }) {
  return (
    <fieldset class="rating">
      <legend>How did we do?</legend>
      {[1, 2, 3, 4, 5].map((value) => (
        <button
          key={value}
          type="button"
          aria-label={`Rate ${value} out of 5`}
          aria-pressed={rating === value}
          class={rating !== null && value <= rating ? 'star on' : 'star'}
          onClick={() => onRate(value)}
        >
          <span aria-hidden="true">★</span>
        </button>
      ))}
      {rating !== null && <p class="thanks">Thanks for your rating.</p>}
    </fieldset>
  );
}
